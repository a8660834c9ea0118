import { createHash } from 'node:crypto'
import { countTokens as countBpeTokens } from 'gpt-tokenizer'

// A fast local estimate with a real BPE tokenizer (o200k). Local models use other vocabularies, so the
// count is an estimate; the budget keeps a safety margin and can be calibrated with server-reported usage.

const SHORT_TEXT = 256
const MAX_ENTRIES = 20_000
const cache = new Map<string, number>()

function cacheKey(text: string): string {
  // Short texts are their own key; long ones are keyed by a content hash so the cache stays small.
  return text.length <= SHORT_TEXT ? text : 'sha1:' + createHash('sha1').update(text).digest('base64')
}

export function countTokens(text: string): number {
  if (text.length === 0) return 0
  const key = cacheKey(text)
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const tokens = countBpeTokens(text)
  if (cache.size >= MAX_ENTRIES) {
    // Maps iterate in insertion order: drop the oldest entry.
    const oldest = cache.keys().next()
    if (!oldest.done) cache.delete(oldest.value)
  }
  cache.set(key, tokens)
  return tokens
}
