import { countTokens } from '../tokens'

// The summary of an earlier result, as Refly extracts it: answers tend to end with their conclusion, so
// take the paragraph holding the last conclusion keyword; when that is too long (or there is none), keep
// the tail. Cheap and deterministic, and therefore unreliable — the prompt says so.

export const SUMMARY_LIMIT_TOKENS = 100
/** Characters kept per token of the limit when the tail is cut (a rough English average). */
export const CHARS_PER_TOKEN = 3.5
export const TRUNCATION_PREFIX = '... [TRUNCATED DUE TO LENGTH LIMIT] '

const ENGLISH_KEYWORDS = [
  'done',
  'completed',
  'finished',
  'in\\s+summary',
  'to\\s+summarize',
  'in\\s+conclusion',
  'finally',
  'as\\s+a\\s+result',
  "I['’]ve\\s+(?:implemented|created|added|updated|fixed)"
]
const CHINESE_KEYWORDS = [
  '已完成',
  '完成了',
  '实现了',
  '搞定',
  '做好了',
  '总结',
  '综上',
  '因此',
  '总的来说',
  '最终',
  '结论'
]

// Beyond Refly: English keywords match whole words only, so "abandoned" does not count as "done".
// Chinese has no word boundaries, so its keywords match anywhere.
const KEYWORD_PATTERN = new RegExp(
  `\\b(?:${ENGLISH_KEYWORDS.join('|')})\\b|${CHINESE_KEYWORDS.join('|')}`,
  'giu'
)

// A sentence end: Western punctuation followed by whitespace, or CJK punctuation (no space follows it).
const SENTENCE_END = /[.!?](?=\s)|[。！？]/u

/** Index of the last conclusion keyword in `content`, or -1. */
export function lastKeywordIndex(content: string): number {
  let last = -1
  for (const match of content.matchAll(KEYWORD_PATTERN)) last = match.index
  return last
}

export function extractSummary(
  content: string,
  limitTokens: number = SUMMARY_LIMIT_TOKENS,
  count: (text: string) => number = countTokens
): string {
  const text = content.trim()
  if (text.length === 0) return ''
  const keywordAt = lastKeywordIndex(text)
  if (keywordAt >= 0) {
    const paragraphBreak = text.lastIndexOf('\n\n', keywordAt)
    const paragraph = text.slice(paragraphBreak < 0 ? 0 : paragraphBreak + 2).trim()
    if (count(paragraph) <= limitTokens) return paragraph
  }
  if (count(text) <= limitTokens) return text
  return truncateFromEnd(text, limitTokens)
}

/** The last `limit × 3.5` characters, starting after the first sentence end when it is near the start. */
export function truncateFromEnd(text: string, limitTokens: number): string {
  const maxChars = Math.floor(limitTokens * CHARS_PER_TOKEN)
  let tail = text.slice(-maxChars)
  // Do not start with half of a surrogate pair (an emoji or a rare CJK character cut in two).
  if (/^[\uDC00-\uDFFF]/.test(tail)) tail = tail.slice(1)
  const sentenceEnd = tail.search(SENTENCE_END)
  if (sentenceEnd >= 0 && sentenceEnd < tail.length * 0.3) tail = tail.slice(sentenceEnd + 1)
  return TRUNCATION_PREFIX + tail.trim()
}
