import { capText, withoutLargeBounds, type AgentTool, type ToolInvocation } from '../agent/tools/create-tool'
import { countTokens } from '../prompt/tokens'
import type { McpToolView } from '../../shared/trust'
import { errorMessage } from '../../shared/error-message'

// One tool of a project's MCP server, as the agent holds it: named `<server>__<tool>`, its JSON schema sent
// as the server gives it (minus the length bounds a grammar-constrained server cannot take), its result
// turned into text that is data for the model, capped like `read`.

/** The OpenAI API takes tool names of at most 64 letters, digits, _ and -. */
const MAX_TOOL_NAME = 64
/** A description is project-controlled text sent with every request: long ones are cut. */
const MAX_DESCRIPTION_CHARS = 1_000
/** What the UI keeps of one result (the model sees at most `maxOutputChars`). */
const MAX_DATA_CHARS = 64_000

export interface McpToolHandle {
  server: string
  tool: string
  description: string
  inputSchema: Record<string, unknown>
  agentTool: AgentTool
  /** Tokens its name, description and schema add to every request (counted once). */
  tokens: number
  call: (tool: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<CallResult>
}

/** What the tool card shows: which server and tool answered, and the (capped) text of the result. */
export interface McpCallData {
  server: string
  tool: string
  text: string
  isError: boolean
}

export function mcpToolName(server: string, tool: string): string {
  return `${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, MAX_TOOL_NAME)
}

export function toMcpTool(
  server: string,
  listed: { name: string; description?: string; inputSchema: Record<string, unknown> },
  call: McpToolHandle['call']
): McpToolHandle {
  const name = mcpToolName(server, listed.name)
  const description = capText(`(from the project's MCP server "${server}") ${listed.description?.trim() || listed.name}`, MAX_DESCRIPTION_CHARS)
  const inputSchema = { type: 'object', ...(withoutLargeBounds(listed.inputSchema) as Record<string, unknown>) }
  const agentTool: AgentTool = {
    name,
    description,
    parameters: inputSchema,
    stopsRun: false,
    invoke: async (args, ctx): Promise<ToolInvocation> => {
      if (typeof args !== 'object' || args === null || Array.isArray(args)) {
        return { ok: false, output: `Error: invalid arguments for ${name}: expected an object` }
      }
      try {
        const result = await call(listed.name, args as Record<string, unknown>, ctx.signal)
        const text = resultText(result)
        const data: McpCallData = { server, tool: listed.name, text: capText(text, MAX_DATA_CHARS), isError: result.isError === true }
        const output = toolOutputForModel(text, ctx.limits.maxOutputChars)
        return result.isError ? { ok: false, output: `Error from ${server}: ${output}`, data } : { ok: true, output: output.trim() === '' ? `${name} returned nothing.` : output, data }
      } catch (error) {
        return { ok: false, output: capText(`Error: ${errorMessage(error)}`, ctx.limits.maxOutputChars) }
      }
    }
  }
  const tokens = countTokens(JSON.stringify({ name, description, parameters: inputSchema }))
  return { server, tool: listed.name, description, inputSchema, agentTool, tokens, call }
}

/** The text the model receives from an MCP tool, capped like `read` (run-agent defangs every tool message it sends). */
function toolOutputForModel(text: string, maxChars: number): string {
  return capText(text, maxChars)
}

/** Text parts as they are; anything else named by kind and size, never sent as raw bytes. */
export function resultText(result: CallResult): string {
  const parts = (result.content ?? []).map((item) => {
    const kind = typeof item.type === 'string' ? item.type : 'unknown'
    if (kind === 'text' && typeof item.text === 'string') return item.text
    if (kind === 'resource' && typeof item.resource === 'object' && item.resource !== null) {
      const resource = item.resource as Record<string, unknown>
      if (typeof resource.text === 'string') return resource.text
      return `[binary resource ${String(resource.uri ?? '')}, not shown]`
    }
    if (kind === 'resource_link') return `[link: ${String(item.uri ?? '')}]`
    if (kind === 'image' || kind === 'audio') {
      const size = typeof item.data === 'string' ? Math.floor((item.data.length * 3) / 4) : 0
      return `[${kind} ${String(item.mimeType ?? '')}, ${size} bytes, not shown]`
    }
    return `[${kind} content, not shown]`
  })
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent)
  return parts.join('\n')
}

export function mcpToolView(handle: McpToolHandle): McpToolView {
  const { agentTool } = handle
  return {
    name: agentTool.name,
    server: handle.server,
    tool: handle.tool,
    description: agentTool.description,
    inputSchema: agentTool.parameters,
    tokens: handle.tokens
  }
}

/** What an MCP tool call returns, as the SDK's client hands it over. */
export interface CallResult {
  content?: Array<Record<string, unknown>>
  structuredContent?: unknown
  isError?: boolean
}
