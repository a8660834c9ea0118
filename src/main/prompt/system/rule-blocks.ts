// RULES.md split at its Markdown headings, so the inspector can show (and a project override can inject) each
// block of rules on its own. Joining the pieces' text gives back the file exactly.

export interface RulePiece {
  text: string
  /** The heading's text for a block that starts with a heading; null for text before the first heading. */
  heading: string | null
}

// Headings and code fences, found in one pass over the text (no per-line work on a 200 KB file).
const HEADING_OR_FENCE = /^(?:[ \t]*(?:```|~~~).*|#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*)$/gm

export function splitRuleBlocks(text: string): RulePiece[] {
  const pieces: RulePiece[] = []
  let start = 0
  let heading: string | null = null
  let inFence = false
  // Pieces are slices of the original text (cheap, and flat for whoever joins them later).
  for (const match of text.matchAll(HEADING_OR_FENCE)) {
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

/** `Revenue & Currency` → `revenue-currency`: a section id part that reads well in a placeholder. */
export function slugOf(heading: string): string {
  const slug = heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
  return slug.length > 0 ? slug : 'block'
}

/** A short, one-line title for the inspector. */
export function shortTitle(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= max ? line : line.slice(0, max - 1).trimEnd() + '…'
}
