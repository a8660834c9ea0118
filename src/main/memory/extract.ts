import type { BaseMessageLike } from '@langchain/core/messages'
import type { MemoryView } from '../../shared/api'
import type { MemoryCategory } from '../../shared/prompt'
import { createChatModel, type ModelEndpoint } from '../agent/chat-model'
import type { ExtractedMemory, Store } from '../store'
import {
  buildExtractionInput,
  CONVERSATION_MESSAGES,
  EXTRACTION_INSTRUCTIONS,
  type ConversationMessage
} from './extraction-prompt'
import { normaliseMemoryContent } from './normalise'
import { EXTRACTION_RESPONSE_SCHEMA, parseExtractionOutput, type ExtractionOutput } from './parse-extraction'
import { errorMessage } from '../../shared/error-message'

// After each user message a local model reads the recent conversation and the saved memories and proposes
// new ones. It runs in the background: the chat never waits for it, and nothing it meets (a server down, an
// answer that is not JSON, a locked store) may escape as an exception. Every outcome comes back as a value.

/** Saved memories shown to the model (newest first); it may supersede only these. */
export const SHOWN_MEMORIES = 100
const RAW_LOG_CHARS = 4000

export interface ExtractionLogger {
  warn(message: string, details: Record<string, unknown>): void
}

const consoleLogger: ExtractionLogger = {
  warn: (message, details) => console.warn(`[memory] ${message}`, details)
}

export interface ExtractionRequest {
  store: Store
  projectId: number
  chatId: string
  endpoint: ModelEndpoint
  logger?: ExtractionLogger
  /** Give up on the model after this long (default 60 s). */
  timeoutMs?: number
}

export type ExtractionResult =
  | { status: 'skipped'; reason: string }
  | { status: 'nothing'; raw: string }
  | {
      status: 'saved'
      inserted: MemoryView[]
      superseded: number[]
      /** supersedes_id values that named no memory the model was shown: the items were saved as new. */
      ignoredSupersedes: number[]
      raw: string
    }
  | { status: 'invalid'; error: string; raw: string }
  | { status: 'failed'; error: string }

function messageText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : ''
    )
    .join('')
}


/**
 * Any HTTP refusal of the request with the response format: servers say "not supported" in different ways
 * (Ollama and vLLM a 400 naming response_format, llama-cpp-python a 500). Asking again in plain text
 * costs one request; when that works too, the format was the problem.
 */
function refusedResponseFormat(error: unknown): boolean {
  const status = error instanceof Error && 'status' in error && typeof error.status === 'number' ? error.status : undefined
  return status !== undefined && status >= 400
}

/**
 * With a JSON-schema response format the OpenAI client parses the answer itself and throws when it is not
 * bare JSON: the server ignored the format (and may have fenced the JSON or added prose).
 */
function ignoredResponseFormat(error: unknown): boolean {
  return error instanceof SyntaxError || /is not valid JSON|Unexpected token|JSON at position/i.test(errorMessage(error))
}

// Endpoints (URL + model) seen to reject or ignore structured output are asked in plain text from then on,
// so they cost one model call per extraction, not two.
const plainTextEndpoints = new Set<string>()

async function askModel(request: ExtractionRequest, messages: BaseMessageLike[]): Promise<string> {
  const model = createChatModel(request.endpoint, { streaming: false, temperature: 0, maxTokens: 1000 })
  const signal = AbortSignal.timeout(request.timeoutMs ?? 60_000)
  const endpointKey = `${request.endpoint.baseUrl}#${request.endpoint.model}`
  const askPlain = async () => messageText((await model.invoke(messages, { signal })).content)
  if (plainTextEndpoints.has(endpointKey)) return askPlain()
  const responseFormat = {
    type: 'json_schema' as const,
    json_schema: { name: 'memories', strict: true, schema: EXTRACTION_RESPONSE_SCHEMA }
  }
  try {
    return messageText((await model.invoke(messages, { signal, response_format: responseFormat })).content)
  } catch (error) {
    if (!refusedResponseFormat(error) && !ignoredResponseFormat(error)) throw error
    // When plain text fails as well, the format was not the problem: report the first failure.
    const answer = await askPlain().catch(() => Promise.reject(error))
    plainTextEndpoints.add(endpointKey)
    return answer
  }
}

/** Turns the model's items into rows to insert: normalised, non-empty, not already saved, valid supersedes. */
function toNewMemories(
  output: ExtractionOutput,
  shown: ReadonlyMap<number, string>,
  chatId: string
): { memories: ExtractedMemory[]; ignoredSupersedes: number[] } {
  const seen = new Set([...shown.values()].map((content) => content.toLowerCase()))
  const memories: ExtractedMemory[] = []
  const ignoredSupersedes: number[] = []
  const groups: [MemoryCategory, ExtractionOutput['user_profile']][] = [
    ['global_rule', output.user_instructions],
    ['personal_fact', output.user_profile]
  ]
  for (const [category, items] of groups) {
    for (const item of items) {
      const content = normaliseMemoryContent(item.content)
      if (content === '' || seen.has(content.toLowerCase())) continue
      seen.add(content.toLowerCase())
      let supersedesId = item.supersedes_id
      if (supersedesId !== null && !shown.has(supersedesId)) {
        ignoredSupersedes.push(supersedesId)
        supersedesId = null
      }
      memories.push({ category, content, chatId, supersedesId })
    }
  }
  return { memories, ignoredSupersedes }
}

/** Runs one extraction now. Never rejects. */
export async function extractMemories(request: ExtractionRequest): Promise<ExtractionResult> {
  const logger = request.logger ?? consoleLogger
  const { store, projectId, chatId } = request
  let raw = ''
  try {
    if (!store.projects.get(projectId).memoryEnabled) return { status: 'skipped', reason: 'memory is off for this project' }
    const conversation: ConversationMessage[] = store.chats
      .recentMessages(chatId, CONVERSATION_MESSAGES)
      .filter((message) => message.text.trim() !== '')
      .map((message) => ({ role: message.role, text: message.text }))
    if (!conversation.some((message) => message.role === 'user'))
      return { status: 'skipped', reason: 'no user message in this chat' }
    const saved = store.memories.recentSelectable(projectId, SHOWN_MEMORIES)

    raw = await askModel(request, [
      { role: 'system', content: EXTRACTION_INSTRUCTIONS },
      { role: 'user', content: buildExtractionInput(conversation, saved) }
    ])

    const parsed = parseExtractionOutput(raw)
    if (!parsed.ok) {
      logger.warn(`extraction output dropped: ${parsed.error}`, { chatId, raw: raw.slice(0, RAW_LOG_CHARS) })
      return { status: 'invalid', error: parsed.error, raw }
    }
    const shown = new Map(saved.map((memory) => [memory.id, memory.content]))
    const { memories, ignoredSupersedes } = toNewMemories(parsed.output, shown, chatId)
    if (ignoredSupersedes.length)
      logger.warn(`extraction named memories it was not shown as superseded; saved as new`, { chatId, ignoredSupersedes })
    if (memories.length === 0) return { status: 'nothing', raw }
    const { inserted, superseded } = store.memories.addExtracted(projectId, memories)
    return { status: 'saved', inserted, superseded, ignoredSupersedes, raw }
  } catch (error) {
    logger.warn(`extraction failed: ${errorMessage(error)}`, { chatId, raw: raw.slice(0, RAW_LOG_CHARS) })
    return { status: 'failed', error: errorMessage(error) }
  }
}

// One extraction at a time per project: a second one must see the first one's memories, or both would save
// the same thing.
const queues = new Map<string, Promise<ExtractionResult>>()

/**
 * Starts an extraction after the current turn of the event loop and returns its promise, which never
 * rejects; callers do not await it (the chat goes on), tests do.
 */
export function scheduleMemoryExtraction(request: ExtractionRequest): Promise<ExtractionResult> {
  const key = `${request.store.file}#${request.projectId}`
  const previous = queues.get(key) ?? Promise.resolve<ExtractionResult>({ status: 'skipped', reason: 'first' })
  const next = previous
    .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
    .then(() => extractMemories(request))
    .catch((error: unknown): ExtractionResult => ({ status: 'failed', error: errorMessage(error) }))
  queues.set(key, next)
  void next.then(() => {
    if (queues.get(key) === next) queues.delete(key)
  })
  return next
}
