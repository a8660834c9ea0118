// RULES.md split at its Markdown headings, so the inspector can show (and a project override can inject) each
// block of rules on its own. Joining the pieces' text gives back the file exactly.

export interface RulePiece {
  text: string
  /** The heading's text for a block that starts with a heading; null for text before the first heading. */
  heading: string | null
}

// Headings and code fences. A regex pass over a 200 KB RULES.md costs ~0.1 ms, on every edit: lines that can
// match are found with indexOf instead (a heading starts its line with `#`, a fence with ``` or ~~~ after
// blanks), and only those are tried, in order, with the same pattern anchored there.
export const HEADING_OR_FENCE = /^(?:[ \t]*(?:```|~~~).*|#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*)$/gm
const HEADING_OR_FENCE_HERE = new RegExp(HEADING_OR_FENCE.source.slice(1), 'my')

export function splitRuleBlocks(text: string): RulePiece[] {
  const pieces: RulePiece[] = []
  let start = 0
  let heading: string | null = null
  let inFence = false
  // Pieces are slices of the original text (cheap, and flat for whoever joins them later).
  for (const lineStart of candidateLines(text)) {
    HEADING_OR_FENCE_HERE.lastIndex = lineStart
    const match = HEADING_OR_FENCE_HERE.exec(text)
    if (!match) continue
    if (match[1] === undefined) {
      inFence = !inFence
      continue
    }
    if (inFence) continue
    if (match.index > start) pieces.push({ text: text.slice(start, match.index), heading })
    start = match.index
    heading = match[1]
  }
  if (text.length > start) pieces.push({ text: text.slice(start), heading })
  return pieces
}

/** Starts of the lines that begin with `#`, or with ``` or ~~~ after spaces and tabs, in order. */
function candidateLines(text: string): number[] {
  const starts = new Set<number>()
  for (let at = text.indexOf('#'); at !== -1; at = text.indexOf('#', at + 1)) if (isLineStart(text, at)) starts.add(at)
  for (const fence of ['```', '~~~']) {
    for (let at = text.indexOf(fence); at !== -1; at = text.indexOf(fence, at + 3)) {
      let lineStart = at
      while (lineStart > 0 && (text[lineStart - 1] === ' ' || text[lineStart - 1] === '\t')) lineStart--
      if (isLineStart(text, lineStart)) starts.add(lineStart)
    }
  }
  return [...starts].sort((a, b) => a - b)
}

/** Where `^` matches in multiline mode: the start, or after a line terminator. */
function isLineStart(text: string, at: number): boolean {
  if (at === 0) return true
  const before = text.charCodeAt(at - 1)
  return before === 10 || before === 13 || before === 0x2028 || before === 0x2029
}

/** `Revenue & Currency` → `revenue-currency`: a section id part that reads well in a placeholder. */
export function slugOf(heading: string): string {
  const lower = heading.toLowerCase()
  // In ASCII, letters and digits are a-z and 0-9; the Unicode classes cost a millisecond to compile on a
  // prompt's first use, which most headings never need.
  const dashed = ASCII_ONLY.test(lower) ? lower.replace(/[^a-z0-9]+/g, '-') : lower.replace(/[^\p{L}\p{N}]+/gu, '-')
  const slug = dashed.replace(/^-+|-+$/g, '')
  return slug.length > 0 ? slug : 'block'
}

const ASCII_ONLY = /^[\x00-\x7f]*$/

/** A short, one-line title for the inspector. */
export function shortTitle(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= max ? line : line.slice(0, max - 1).trimEnd() + '…'
}
