import type { BaseLanguageModelInput } from '@langchain/core/language_models/base'
import type { AIMessageChunk } from '@langchain/core/messages'
import type { Runnable } from '@langchain/core/runnables'
import type { ChatOpenAI } from '@langchain/openai'
import { createChatModel, type ModelEndpoint } from './chat-model'

// Building a ChatOpenAI and binding tools costs about a millisecond each; a chat sends many rounds to the
// same endpoint with the same tools, so both are kept (a few entries, oldest dropped first).

export type StreamingModel = Runnable<BaseLanguageModelInput, AIMessageChunk>

export interface ToolSpec {
  name: string
  description: string
  parameters: Record<string, unknown>
}

const MAX_ENTRIES = 16
const models = new Map<string, ChatOpenAI>()
const bound = new Map<string, StreamingModel>()
const toolIds = new WeakMap<ToolSpec, number>()
let nextToolId = 0

export interface SamplingOptions {
  temperature?: number
  /** Sent as max_tokens: the output the budget reserved, so a runaway model stops there. */
  maxTokens?: number
}

export function streamingModel(endpoint: ModelEndpoint, sampling: SamplingOptions, tools: readonly ToolSpec[]): StreamingModel {
  const modelKey = JSON.stringify([endpoint.baseUrl, endpoint.model, sampling.temperature ?? null, sampling.maxTokens ?? null])
  let model = models.get(modelKey)
  if (!model) {
    model = createChatModel(endpoint, { temperature: sampling.temperature, maxTokens: sampling.maxTokens })
    remember(models, modelKey, model)
  }
  if (tools.length === 0) return model
  // Tools are keyed by identity: the same objects always describe themselves the same way.
  const key = `${modelKey}|${tools.map(idOf).join(',')}`
  let runnable = bound.get(key)
  if (!runnable) {
    runnable = model.bindTools(tools.map((tool) => ({ type: 'function' as const, function: { name: tool.name, description: tool.description, parameters: tool.parameters } })))
    remember(bound, key, runnable)
  }
  return runnable
}

function idOf(tool: ToolSpec): number {
  let id = toolIds.get(tool)
  if (id === undefined) {
    id = ++nextToolId
    toolIds.set(tool, id)
  }
  return id
}

function remember<T>(cache: Map<string, T>, key: string, value: T): void {
  if (cache.size >= MAX_ENTRIES) {
    const oldest = cache.keys().next().value
    if (oldest !== undefined) cache.delete(oldest)
  }
  cache.set(key, value)
}
