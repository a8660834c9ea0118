import * as z from '../../../shared/zod-mini'
import type { ProjectSnapshot } from '../../project/types'
import type { DatabasePool } from '../sql/database-pool'
import type { QueryStore } from '../sql/query-store'
import { DEFAULT_MAX_CELL_CHARS, DEFAULT_MAX_RESULT_BYTES } from '../../engines/result-budget'
import { errorMessage } from '../../../shared/error-message'
import { derivedFromCode } from '../../build-cache'
import { once } from '../../../shared/once'

// Every tool is one name and one `createTool` call: zod input schema, execute, and the text the model sees.
// The structured result of `execute` goes to the UI as `data`; `toModelOutput` owns the caps for the model.

export interface ToolLimits {
  /** Rows of a query result shown to the model. */
  maxRowsShown: number
  /** Rows kept per query in the query store (for charts and citations). */
  maxRowsStored: number
  /** Characters of any tool output sent to the model. */
  maxOutputChars: number
  sqlTimeoutMs: number
  /** Bytes of one query's cells kept in memory; reading stops there with a visible note. */
  maxResultBytes: number
  /** Characters kept of one result cell. */
  maxCellChars: number
  /** Entries returned by list / search. */
  maxEntries: number
  /** Default and ceiling for grep matches. */
  maxGrepResults: number
  /** Files larger than this are not read or grepped. */
  maxFileBytes: number
  /** Wall-clock budget of one grep or search; past it the tool stops and says how far it got. */
  searchTimeMs: number
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  maxRowsShown: 50,
  maxRowsStored: 1_000,
  maxOutputChars: 16_000,
  sqlTimeoutMs: 30_000,
  maxResultBytes: DEFAULT_MAX_RESULT_BYTES,
  maxCellChars: DEFAULT_MAX_CELL_CHARS,
  maxEntries: 200,
  maxGrepResults: 100,
  maxFileBytes: 2_000_000,
  searchTimeMs: 5_000
}

/** An earlier answer the user referenced (pinned result, forked chat). */
export interface AgentResultRecord {
  resultId: string
  title: string
  status: string
  content: string
  toolCalls: Array<{ callId: string; toolName: string; status: string; error?: string }>
}

export interface ToolResultRecord {
  resultId: string
  callId: string
  toolName: string
  args: Record<string, unknown>
  ok: boolean
  output: string
}

export interface ToolContext {
  project: ProjectSnapshot
  signal: AbortSignal
  runId: string
  databases: DatabasePool
  queryStore: QueryStore
  /** Injected by the caller (e.g. from the SQLite store); null when unknown. */
  readAgentResult: (resultId: string) => Promise<AgentResultRecord | null>
  readToolResult: (resultId: string, callId: string) => Promise<ToolResultRecord | null>
  limits: ToolLimits
}

export interface ToolInvocation {
  ok: boolean
  /** The text the model receives. */
  output: string
  /** Structured result for the UI. */
  data?: unknown
}

/** A tool with its types erased, as the agent loop holds it. */
export interface AgentTool {
  name: string
  description: string
  /** JSON schema of the input, as sent to the model. */
  parameters: Record<string, unknown>
  /** Calling it ends the run and waits for the user (clarification). */
  stopsRun: boolean
  invoke: (args: unknown, ctx: ToolContext) => Promise<ToolInvocation>
}

export interface ToolDefinition<Input, Result> {
  name: string
  description: string
  /** Made when first needed, once: a start that only lists the tools (or reads their kept parameters) builds none. */
  inputSchema: () => z.core.$ZodType<Input>
  execute: (input: Input, ctx: ToolContext) => Promise<Result>
  toModelOutput: (result: Result, ctx: ToolContext) => string
  stopsRun?: boolean
}

/** A failure the model can act on: its message goes back as the tool output. */
export class ToolError extends Error {
  override name = 'ToolError'
}

export function createTool<Input, Result>(definition: ToolDefinition<Input, Result>): AgentTool {
  const { name, description } = definition
  const inputSchema = once(definition.inputSchema)
  // Tool names are unique, and a tool's schema is part of the code.
  const parameters = once(() => derivedFromCode(`tool-parameters:${name}`, () => jsonSchemaOf(inputSchema())))
  return {
    name,
    description,
    get parameters() {
      return parameters()
    },
    stopsRun: definition.stopsRun ?? false,
    invoke: async (args, ctx) => {
      const parsed = z.safeParse(inputSchema(), args)
      if (!parsed.success) {
        return { ok: false, output: `Error: invalid arguments for ${name}: ${z.prettifyError(parsed.error)}` }
      }
      try {
        const result = await definition.execute(parsed.data, ctx)
        return { ok: true, output: capText(definition.toModelOutput(result, ctx), ctx.limits.maxOutputChars), data: result }
      } catch (error) {
        return { ok: false, output: capText(`Error: ${errorMessage(error)}`, ctx.limits.maxOutputChars) }
      }
    }
  }
}

/**
 * Servers that constrain tool calls with a grammar (llama.cpp) turn every length or count bound into a
 * repetition, and refuse the whole request from 2,000 repetitions on ("failed to parse grammar"). Large
 * bounds guard our input, not the model's output, so they stay in the zod schema and are left out here.
 */
const MAX_BOUND_SENT = 500
const BOUND_KEYS = ['maxLength', 'maxItems', 'maxProperties'] as const

function jsonSchemaOf(schema: z.core.$ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema)
  return withoutLargeBounds(rest) as Record<string, unknown>
}

export function withoutLargeBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLargeBounds)
  if (node === null || typeof node !== 'object') return node
  const copy: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if ((BOUND_KEYS as readonly string[]).includes(key) && typeof value === 'number' && value > MAX_BOUND_SENT) continue
    copy[key] = withoutLargeBounds(value)
  }
  return copy
}

/** Cuts text to `maxChars` with a visible marker saying how much was left out. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  return `${text.slice(0, maxChars)}\n… ${text.length - maxChars} more characters (output capped at ${maxChars})`
}

