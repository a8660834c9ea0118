import { ChatOpenAI } from '@langchain/openai'
import { withRequestCapture } from './request-capture'

/** Where a model lives: a local OpenAI-compatible server and the model name it serves. */
export interface ModelEndpoint {
  /** e.g. http://127.0.0.1:11434/v1 */
  baseUrl: string
  model: string
}

// Local servers ignore the key, but the OpenAI client insists on one.
const PLACEHOLDER_API_KEY = 'glassbox-local'

export interface ChatModelOptions {
  temperature?: number
  maxTokens?: number
  streaming?: boolean
}

/**
 * The one way Glassbox talks to a model: Chat Completions (not the Responses API) on the configured
 * endpoint only, no retries behind the user's back (a failing server must become a message, fast).
 */
export function createChatModel(endpoint: ModelEndpoint, options: ChatModelOptions = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: endpoint.model,
    apiKey: PLACEHOLDER_API_KEY,
    // Fetch wrappers stack here; the capture one records each body exactly as sent (see request-capture.ts).
    configuration: { baseURL: endpoint.baseUrl, fetch: withRequestCapture(globalThis.fetch) },
    streaming: options.streaming ?? true,
    useResponsesApi: false,
    maxRetries: 0,
    temperature: options.temperature,
    maxTokens: options.maxTokens,
    streamUsage: true
  })
}
