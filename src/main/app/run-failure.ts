import { listModels } from '../agent/discovery'
import { kindOf, type ServerKind } from '../agent/endpoints'
import { describe } from '../agent/model-errors'
import type { ModelEndpoint } from '../agent/chat-model'
import type { Budget } from '../../shared/prompt'
import { formatCount } from '../../shared/format-count'

// A failed run's one message: the reason the model client gave, cleaned of library links, and what to do
// about it, with what only the app knows (the configured endpoint, the models it serves, the budget used).

const LIBRARY_LINK = /\s*(?:Troubleshooting URL:\s*)?https?:\/\/(?:docs\.langchain\.com|js\.langchain\.com|python\.langchain\.com|platform\.openai\.com|help\.openai\.com)[^\s)]*/gi
const UNREACHABLE = /could not reach the model server/i
const CONTEXT_WINDOW = /context window/i
const UNKNOWN_MODEL = /HTTP 404|model .{0,80}(?:not found|does not exist|not loaded|unknown)|no such model|unknown model/i

const START_COMMANDS: Record<ServerKind, (port: string) => string> = {
  ollama: () => 'Start it with `ollama serve` (and `ollama pull <model>` if the model is not there yet).',
  'llama.cpp': (port) => `Start it with \`llama-server -m model.gguf --jinja -c 16384 --port ${port}\`.`,
  lmstudio: () => 'Open LM Studio, load a model and start its local server.',
  vllm: (port) => `Start it with \`vllm serve <model> --port ${port}\`.`,
  jan: () => 'Open Jan and start its local API server.',
  custom: (port) =>
    `Start the server that should listen there (e.g. \`llama-server -m model.gguf --jinja -c 16384 --port ${port}\` or \`ollama serve\`), or choose another endpoint in Settings.`
}

function format(tokens: number): string {
  return formatCount(tokens)
}

export function withoutLibraryLinks(message: string): string {
  return message
    .replace(LIBRARY_LINK, '')
    .replace(/\(\s*(?:see)?\s*\)/gi, '')
    .replace(/[ \t]*\n\s*/g, ' ')
    .replace(/\s+\)/g, ')')
    .replace(/ {2,}/g, ' ')
    .trim()
}

/** Why a server could not be reached, in the same words everywhere (chat, Settings, the model picker). */
export function unreachableReason(reason: string): string {
  return /ECONNREFUSED/.test(reason) ? 'nothing is listening there (connection refused)' : /ETIMEDOUT|timed? ?out|TimeoutError|aborted due to timeout/i.test(reason) ? 'it did not answer in time' : 'the connection failed'
}

/** Why listing a server's models failed: not reachable (as the chat says it), or what the server answered. */
export function describeListFailure(baseUrl: string, error: unknown): string {
  const reason = describe(error)
  if (/ECONNREFUSED|fetch failed|ENOTFOUND|EHOSTUNREACH|ECONNRESET|ETIMEDOUT|TimeoutError|aborted due to timeout/i.test(reason)) {
    const port = new URL(baseUrl).port || '80'
    return `Could not reach the model server at ${baseUrl}: ${unreachableReason(reason)}. ${START_COMMANDS[kindOf(baseUrl)](port)}`
  }
  return withoutLibraryLinks(reason)
}

export interface FailureContext {
  endpoint: ModelEndpoint
  budget: Budget | null
  /** Reads the model's window from the server again, after it refused a request for length. */
  rereadWindow?: () => Promise<{ contextWindow: number; contextSource: string } | null>
}

/** The message the chat shows for a failed run: reason, then what to do. Never throws. */
export async function explainRunFailure(error: string, context: FailureContext): Promise<string> {
  const reason = withoutLibraryLinks(error)
  const { endpoint, budget } = context
  if (UNREACHABLE.test(reason)) {
    const port = new URL(endpoint.baseUrl).port || '80'
    const why = unreachableReason(reason)
    return `Could not reach the model server at ${endpoint.baseUrl}: ${why}. ${START_COMMANDS[kindOf(endpoint.baseUrl)](port)}`
  }
  if (CONTEXT_WINDOW.test(reason) && budget) {
    const source = budget.contextSource ? ` (${budget.contextSource})` : ''
    const limit = /(?:maximum context length|context size|n_ctx\w*)\D{0,20}(\d+)/i.exec(reason)?.[1]
    const requested = /(?:requested|request \(|prompt has|you have)\D{0,20}(\d+)/i.exec(reason)?.[1]
    const now = await context.rereadWindow?.().catch(() => null)
    if (now && now.contextWindow !== budget.contextWindow) {
      const size = requested ? `${format(Number(requested))} tokens, as the server counted it` : `${format(budget.used)} tokens`
      return (
        `The server's window changed from ${format(budget.contextWindow)} to ${format(now.contextWindow)} tokens (${now.contextSource}) since Glassbox last read it, ` +
        `so it refused this request (${size}). Ask again: the next request is fitted to ${format(now.contextWindow)}.`
      )
    }
    const serverSaid =
      limit && requested
        ? `The model server refused the request as too long: its context window is ${format(Number(limit))} tokens and this request needed ${format(Number(requested))}.`
        : reason
    return (
      `${serverSaid} Glassbox fitted the request to ${format(budget.used)} of ${format(budget.contextWindow)} tokens${source}, so the server’s window is smaller than Glassbox assumed. ` +
      'Set the real size under Settings → Context window, or restart the server with a larger one.'
    )
  }
  if (UNKNOWN_MODEL.test(reason)) {
    try {
      const served = (await listModels(endpoint.baseUrl, { timeoutMs: 1500, apiKey: endpoint.apiKey })).map((model) => model.id)
      if (!served.includes(endpoint.model)) {
        const list = served.length > 0 ? `It serves: ${served.join(', ')}. Pick one in the model picker.` : 'It serves no model right now: load or pull one.'
        return `The model server at ${endpoint.baseUrl} does not have the model “${endpoint.model}”. ${list}`
      }
    } catch {
      // Keep the server's own words.
    }
  }
  return reason
}
