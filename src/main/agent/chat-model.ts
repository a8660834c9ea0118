import { ChatOpenAI } from '@langchain/openai'
import { modelFetch, type FetchLike } from './model-fetch'
import { withRequestCapture } from './request-capture'

/** Where a model lives: a local OpenAI-compatible server and the model name it serves. */
export interface ModelEndpoint {
  /** e.g. http://127.0.0.1:11434/v1 */
  baseUrl: string
  model: string
  /** Sent as `Authorization: Bearer …` to a server that wants one (set per server in Settings). */
  apiKey?: string
}

// Local servers ignore the key, but the OpenAI client insists on one.
const PLACEHOLDER_API_KEY = 'glassbox-local'

export interface ChatModelOptions {
  temperature?: number
  maxTokens?: number
  streaming?: boolean
  /** Every request goes through this (default: modelFetch, which survives a closed idle socket). */
  fetch?: FetchLike
}

/**
 * The one way Glassbox talks to a model: Chat Completions (not the Responses API) on the configured
 * endpoint only, no retries behind the user's back (a failing server must become a message, fast) — except
 * the one retry of a request that met a keep-alive socket the server had just closed (see model-fetch.ts).
 */
export function createChatModel(endpoint: ModelEndpoint, options: ChatModelOptions = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: endpoint.model,
    apiKey: endpoint.apiKey || PLACEHOLDER_API_KEY,
    // Wrappers stack: the capture (outermost, so a retried request is one round) records each body exactly as
    // sent (request-capture.ts); modelFetch retries a request that met a closed idle socket (model-fetch.ts).
    configuration: { baseURL: endpoint.baseUrl, fetch: withRequestCapture(options.fetch ?? modelFetch) },
    streaming: options.streaming ?? true,
    useResponsesApi: false,
    maxRetries: 0,
    temperature: options.temperature,
    maxTokens: options.maxTokens,
    streamUsage: true
  })
}
