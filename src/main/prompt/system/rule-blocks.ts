// RULES.md split at its Markdown headings, so the inspector can show (and a project override can inject) each
// block of rules on its own. Joining the pieces' text gives back the file exactly.

export interface RulePiece {
  text: string
  /** The heading's text for a block that starts with a heading; null for text before the first heading. */
  heading: string | null
}

const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/
const FENCE = /^\s*(```|~~~)/

export function splitRuleBlocks(text: string): RulePiece[] {
  const pieces: RulePiece[] = []
  let start = 0
  let heading: string | null = null
  let inFence = false
  // Pieces are slices of the original text (cheap, and flat for whoever joins them later).
  for (let lineStart = 0; lineStart < text.length; ) {
    const newline = text.indexOf('\n', lineStart)
    const lineEnd = newline === -1 ? text.length : newline + 1
    const line = text.slice(lineStart, lineEnd)
    if (FENCE.test(line)) inFence = !inFence
    const match = inFence ? null : HEADING.exec(line.trimEnd())
    if (match) {
      if (lineStart > start) pieces.push({ text: text.slice(start, lineStart), heading })
      start = lineStart
      heading = match[1]
    }
    lineStart = lineEnd
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
