import type { ContentPart, RequestMessage } from '../../../../shared/prompt'

// Reads a captured request body (the JSON the HTTP client sent) back into what the inspector shows:
// the messages in order, the tool schemas and the other request parameters. Anything unexpected is kept
// as text rather than dropped, so the view never hides part of what was sent.

export interface ParsedRequest {
  messages: RequestMessage[]
  tools: { name: string; description: string; parameters: unknown }[]
  /** Every other top-level field (model, stream, temperature, …), as sent. */
  params: [string, unknown][]
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const ROLES = ['system', 'user', 'assistant', 'tool'] as const
type Role = (typeof ROLES)[number]

function roleOf(value: unknown): Role {
  return ROLES.find((role) => role === value) ?? 'user'
}

function contentOf(value: unknown): string | ContentPart[] {
  if (typeof value === 'string') return value
  if (!Array.isArray(value)) return value === null || value === undefined ? '' : JSON.stringify(value)
  return value.map((part): ContentPart => {
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') return { type: 'text', text: part.text }
    if (isRecord(part) && part.type === 'image_url' && isRecord(part.image_url) && typeof part.image_url.url === 'string') return { type: 'image_url', image_url: { url: part.image_url.url } }
    return { type: 'text', text: JSON.stringify(part) }
  })
}

function argsOf(value: unknown): Record<string, unknown> {
  if (typeof value !== 'string') return isRecord(value) ? value : {}
  try {
    const parsed: unknown = JSON.parse(value)
    return isRecord(parsed) ? parsed : { raw_arguments: value }
  } catch {
    return { raw_arguments: value }
  }
}

export function parseRequestBody(body: string): ParsedRequest | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return null
  }
  if (!isRecord(parsed)) return null
  const messages = (Array.isArray(parsed.messages) ? parsed.messages : []).filter(isRecord).map((message): RequestMessage => {
    const toolCalls = Array.isArray(message.tool_calls)
      ? message.tool_calls.filter(isRecord).map((call) => {
          const fn = isRecord(call.function) ? call.function : {}
          return { id: typeof call.id === 'string' ? call.id : '', name: typeof fn.name === 'string' ? fn.name : '?', args: argsOf(fn.arguments) }
        })
      : undefined
    return {
      role: roleOf(message.role),
      content: contentOf(message.content),
      ...(toolCalls && toolCalls.length > 0 ? { toolCalls } : {}),
      ...(typeof message.tool_call_id === 'string' ? { toolCallId: message.tool_call_id } : {})
    }
  })
  const tools = (Array.isArray(parsed.tools) ? parsed.tools : []).filter(isRecord).map((tool) => {
    const fn = isRecord(tool.function) ? tool.function : {}
    return { name: typeof fn.name === 'string' ? fn.name : '?', description: typeof fn.description === 'string' ? fn.description : '', parameters: fn.parameters }
  })
  const params = Object.entries(parsed).filter(([key]) => key !== 'messages' && key !== 'tools')
  return { messages, tools, params }
}
