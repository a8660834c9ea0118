import type { ContentPart, RequestMessage } from '../../../shared/prompt'

// The request exactly as it leaves Glassbox: system, chat history, this run's messages so far, then the
// user prompt last. Pure: inputs are copied, never changed.

export interface BuildRequestInput {
  system: string
  /** Earlier turns of the chat, oldest first (already fitted to the budget). */
  history: readonly RequestMessage[]
  /** Messages of the current run so far (assistant tool calls and tool results), oldest first. */
  messages?: readonly RequestMessage[]
  /** The rendered user prompt. */
  user: string
  /** Image URLs (`data:` or file URLs) sent with the user prompt. */
  images?: readonly string[]
  model: { supportsPromptCache: boolean }
}

/** How many of the most recent cacheable messages get a cache mark, besides the system prompt. */
export const RECENT_CACHE_MARKS = 3

export class EmptyUserPromptError extends Error {
  constructor() {
    super('The user prompt is empty: type a question before sending (nothing was sent to the model).')
    this.name = 'EmptyUserPromptError'
  }
}

export function buildRequestMessages(input: BuildRequestInput): RequestMessage[] {
  if (input.user.trim().length === 0) throw new EmptyUserPromptError()

  const system: RequestMessage[] = input.system.length > 0 ? [{ role: 'system', content: input.system }] : []
  const earlier = [...input.history, ...(input.messages ?? [])].map(copyWithoutCacheMark)
  const final: RequestMessage = { role: 'user', content: userContent(input.user, input.images ?? []) }

  if (input.model.supportsPromptCache) {
    // The system prompt is the stable prefix; the latest few messages extend it turn by turn. The final
    // user message changes every time, so marking it would only waste a cache write.
    for (const message of system) message.cache = true
    let marks = 0
    for (let i = earlier.length - 1; i >= 0 && marks < RECENT_CACHE_MARKS; i--) {
      if (isCacheable(earlier[i])) {
        earlier[i].cache = true
        marks++
      }
    }
  }
  return [...system, ...earlier, final]
}

function userContent(text: string, images: readonly string[]): string | ContentPart[] {
  if (images.length === 0) return text
  return [{ type: 'text', text }, ...images.map((url): ContentPart => ({ type: 'image_url', image_url: { url } }))]
}

function isCacheable(message: RequestMessage): boolean {
  return message.role !== 'tool' && !isEmpty(message.content)
}

function isEmpty(content: string | ContentPart[]): boolean {
  if (typeof content === 'string') return content.trim().length === 0
  return content.every((part) => part.type === 'text' && part.text.trim().length === 0)
}

// A deep copy, so a caller that changes the request (or the input) afterwards cannot affect the other.
function copyWithoutCacheMark(message: RequestMessage): RequestMessage {
  const { cache: _cache, ...rest } = message
  return structuredClone(rest)
}
