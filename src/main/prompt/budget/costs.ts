import type { ContentPart, RequestMessage } from '../../../shared/prompt'
import { formatCount } from '../../../shared/format-count'

// Token estimates for whole messages. The estimator counts text; a chat template adds role markers around
// every message, and images cost whatever the model's vision encoder makes of them — both are guesses,
// which is one reason the fitter keeps a safety margin.

/** Role markers and separators a chat template adds around each message (ChatML uses about 4). */
export const MESSAGE_OVERHEAD_TOKENS = 4
/** A rough cost of one image for local vision models (LLaVA-style encoders use 576–1,000). */
export const IMAGE_TOKENS = 768
/**
 * Share of the context window kept free. The estimator is a BPE tokenizer (o200k) while local models use
 * their own vocabularies (Llama, Qwen, Mistral…), which count the same text a few percent differently.
 */
export const DEFAULT_SAFETY_MARGIN_RATIO = 0.05

export type TokenCounter = (text: string) => number

export function messageTokens(message: RequestMessage, count: TokenCounter): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + contentTokens(message.content, count)
  for (const call of message.toolCalls ?? []) {
    tokens += MESSAGE_OVERHEAD_TOKENS + count(call.name) + count(JSON.stringify(call.args))
  }
  return tokens
}

export function contentTokens(content: string | ContentPart[], count: TokenCounter): number {
  if (typeof content === 'string') return count(content)
  let tokens = 0
  for (const part of content) tokens += part.type === 'text' ? count(part.text) : IMAGE_TOKENS
  return tokens
}

/** What the request needs at least, by part, when nothing more can be trimmed. */
export interface MinimalRequest {
  system: number
  tools: number
  history: number
  user: number
  output: number
  safetyMargin: number
}

/** Even the parts that are never trimmed do not fit: the run must not start. */
export class ContextWindowTooSmallError extends Error {
  readonly needed: number
  constructor(
    readonly contextWindow: number,
    readonly minimal: MinimalRequest
  ) {
    const needed = Object.values(minimal).reduce((sum, tokens) => sum + tokens, 0)
    const parts = [
      `system prompt ${fmt(minimal.system)}`,
      `tool schemas ${fmt(minimal.tools)}`,
      ...(minimal.history > 0 ? [`this run's messages ${fmt(minimal.history)}`] : []),
      `question and context ${fmt(minimal.user)}`,
      `reserved output ${fmt(minimal.output)}`,
      `safety margin ${fmt(minimal.safetyMargin)}`
    ]
    super(
      `The request needs at least ${fmt(needed)} tokens (${parts.join(', ')}) but the model's context window ` +
        `is ${fmt(contextWindow)} tokens, even with all history, memory, skills and context summaries left out. ` +
        'Nothing was sent. Use a model (or server setting) with a larger context window, reserve less output, ' +
        "or shorten the project's instructions and rules."
    )
    this.name = 'ContextWindowTooSmallError'
    this.needed = needed
  }
}

function fmt(tokens: number): string {
  return formatCount(tokens)
}
