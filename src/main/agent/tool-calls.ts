import { z } from 'zod'
import { errorMessage } from '../../shared/error-message'

// Tool calls as the loop sees them, assembled from streamed chunks that may lack `index`, or recovered from
// JSON a model wrote into its content instead of `tool_calls`.

export interface ParsedToolCall {
  callId: string
  name: string
  /** Parsed arguments, or null when the model's JSON was invalid (`argsError` says why). */
  args: Record<string, unknown> | null
  rawArgs: string
  argsError?: string
}

export interface ToolCallChunk {
  id?: string
  name?: string
  args?: string
  index?: number
}

/** Collects streamed tool-call chunks. Without an index, a chunk carrying a new id starts a new call. */
export class ToolCallAccumulator {
  private readonly calls: Array<{ key: string; id: string; name: string; args: string }> = []

  add(chunk: ToolCallChunk): void {
    const last = this.calls.at(-1)
    let key: string
    if (chunk.index !== undefined) key = `index:${chunk.index}`
    else if (chunk.id && chunk.id !== last?.id) key = `id:${chunk.id}`
    // No index and no id: a name after a call that already has arguments starts the next call.
    else if (!last || (chunk.name && last.name !== '' && last.args !== '')) key = `position:${this.calls.length}`
    else key = last.key
    let call = this.calls.find((candidate) => candidate.key === key)
    if (!call) {
      call = { key, id: '', name: '', args: '' }
      this.calls.push(call)
    }
    if (chunk.id && !call.id) call.id = chunk.id
    if (chunk.name) call.name += call.name === chunk.name ? '' : chunk.name
    if (chunk.args) call.args += chunk.args
  }

  finish(makeId: (position: number) => string): ParsedToolCall[] {
    return this.calls
      .filter((call) => call.name !== '' || call.args !== '')
      .map((call, position) => ({ callId: call.id || makeId(position), name: call.name, ...parseArgs(call.args) }))
  }
}

export function parseArgs(raw: string): Pick<ParsedToolCall, 'args' | 'rawArgs' | 'argsError'> {
  if (raw.trim() === '') return { args: {}, rawArgs: raw }
  try {
    const value: unknown = JSON.parse(raw)
    if (isRecord(value)) return { args: value, rawArgs: raw }
    return { args: null, rawArgs: raw, argsError: 'the arguments must be a JSON object' }
  } catch (error) {
    return { args: null, rawArgs: raw, argsError: `the arguments are not valid JSON (${errorMessage(error)})` }
  }
}

const contentCallSchema = z.union([
  z.object({ name: z.string(), arguments: z.unknown().optional(), parameters: z.unknown().optional(), args: z.unknown().optional() }),
  z.object({ function: z.object({ name: z.string(), arguments: z.unknown().optional() }) })
])

/**
 * Recovers tool calls a model wrote as JSON in its content: a bare object or array, inside a ```json fence,
 * or in `<tool_call>` tags (Hermes/Qwen templates), one or more. Every call must name a known tool; anything
 * else is ordinary text and null is returned.
 */
export function toolCallsFromContent(content: string, knownTools: ReadonlySet<string>, makeId: (position: number) => string): ParsedToolCall[] | null {
  const blocks = jsonBlocks(content)
  if (blocks.length === 0) return null
  const calls: ParsedToolCall[] = []
  for (const block of blocks) {
    let value: unknown
    try {
      value = JSON.parse(block)
    } catch {
      return null
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      const parsed = contentCallSchema.safeParse(item)
      if (!parsed.success) return null
      const call = 'function' in parsed.data
        ? { name: parsed.data.function.name, args: parsed.data.function.arguments }
        : { name: parsed.data.name, args: parsed.data.arguments ?? parsed.data.parameters ?? parsed.data.args }
      if (!knownTools.has(call.name)) return null
      const raw = typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {})
      calls.push({ callId: makeId(calls.length), name: call.name, ...parseArgs(raw) })
    }
  }
  return calls.length > 0 ? calls : null
}

/** True when streamed content may turn out to be a tool call, so it is held back rather than shown. */
export function mayBeToolCallJson(content: string): boolean {
  const start = content.trimStart()
  return start.startsWith('{') || start.startsWith('[') || start.startsWith('```') || start.startsWith('<tool_call>')
}

function jsonBlocks(content: string): string[] {
  const text = content.trim()
  const tagged = [...text.matchAll(/<tool_call>([\s\S]*?)<\/tool_call>/g)].map((match) => match[1].trim())
  if (tagged.length > 0) return text.replace(/<tool_call>[\s\S]*?<\/tool_call>/g, '').trim() === '' ? tagged : []
  const fenced = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/.exec(text)
  const body = (fenced ? fenced[1] : text).trim()
  if (!body.startsWith('{') && !body.startsWith('[')) return []
  try {
    JSON.parse(body)
    return [body]
  } catch {
    // Several objects, one per line.
    const lines = body.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '')
    return lines.every((line) => line.startsWith('{')) ? lines : []
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Canonical `name:args` of a round, sorted, for the loop guard. */
export function roundSignature(calls: readonly ParsedToolCall[]): string {
  return calls
    .map((call) => `${call.name}:${call.args ? canonicalJson(call.args) : call.rawArgs}`)
    .sort()
    .join('\n')
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (isRecord(value)) {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
