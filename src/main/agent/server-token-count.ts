import { hash } from 'node:crypto'
import * as z from '../../shared/zod-mini'
import type { RequestMessage } from '../../shared/prompt'
import type { ModelEndpoint } from './chat-model'
import { serverOrigin } from './endpoints'
import type { ToolSpec } from './model-cache'
import { modelFetch } from './model-fetch'

// Exact prompt sizes from a server that can count them: llama.cpp renders the request with the model's own
// chat template (POST /apply-template, the same body as a chat completion, tool definitions included) and
// tokenizes the result with the model's own vocabulary (POST /tokenize). The count equals the prompt_tokens
// the server reports for that request. Servers without these endpoints (Ollama, LM Studio, vLLM, …) are
// remembered and not asked again; their estimates are corrected from reported usage instead.

const TIMEOUT_MS = 3_000
const MAX_CACHED = 500

const templateSchema = z.object({ prompt: z.string() })
const tokenizeSchema = z.object({ tokens: z.array(z.unknown()) })

export class ServerTokenCounter {
  private readonly counts = new Map<string, number>()
  /** Origins that answered 404/405/501 to one of the endpoints: they cannot count. */
  private readonly cannotCount = new Set<string>()

  constructor(private readonly fetchImpl: typeof modelFetch = modelFetch) {}

  /**
   * Tokens the request's prompt takes on the server (before any output), or null when the server cannot
   * say (no such endpoints, an error, a timeout). Cached per endpoint and request.
   */
  async count(endpoint: ModelEndpoint, messages: readonly RequestMessage[], tools: readonly ToolSpec[], signal?: AbortSignal): Promise<number | null> {
    const origin = serverOrigin(endpoint.baseUrl)
    if (this.cannotCount.has(origin)) return null
    // LangChain loads with the first count (a run), not with the services: the CLI's prompt never needs it.
    const [{ convertMessagesToCompletionsMessageParams }, { toLangChainMessages }] = await Promise.all([import('@langchain/openai'), import('./messages')])
    const body = JSON.stringify({
      model: endpoint.model,
      messages: convertMessagesToCompletionsMessageParams({ messages: toLangChainMessages(messages), model: endpoint.model }),
      ...(tools.length > 0
        ? { tools: tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })) }
        : {})
    })
    const key = hash('sha1', `${endpoint.baseUrl}\n${body}`, 'base64')
    const cached = this.counts.get(key)
    if (cached !== undefined) return cached
    try {
      const rendered = templateSchema.safeParse(await this.post(`${origin}/apply-template`, body, origin, signal, endpoint.apiKey))
      if (!rendered.success) return null
      const tokenized = tokenizeSchema.safeParse(
        await this.post(`${origin}/tokenize`, JSON.stringify({ content: rendered.data.prompt, add_special: true, parse_special: true }), origin, signal, endpoint.apiKey)
      )
      if (!tokenized.success) return null
      const tokens = tokenized.data.tokens.length
      if (this.counts.size >= MAX_CACHED) this.counts.delete(this.counts.keys().next().value ?? '')
      this.counts.set(key, tokens)
      return tokens
    } catch {
      return null
    }
  }

  private async post(url: string, body: string, origin: string, signal?: AbortSignal, apiKey?: string): Promise<unknown> {
    const timeout = AbortSignal.timeout(TIMEOUT_MS)
    const response = await this.fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
      body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout
    })
    if (response.status === 404 || response.status === 405 || response.status === 501) {
      this.cannotCount.add(origin)
      await response.body?.cancel()
      throw new Error(`${url}: not offered`)
    }
    if (!response.ok) {
      await response.body?.cancel()
      throw new Error(`${url} answered HTTP ${response.status}`)
    }
    return response.json()
  }
}
