import { countTokens } from './tokens'

// Token counts of long texts, paragraph by paragraph. countTokens caches whole texts, so one changed line in a
// 200 KB RULES.md (or a new memory in a 220 KB system prompt) would cost a full BPE pass, tens of
// milliseconds. Counted in pieces, each cached on its own, the change costs its paragraph. Pieces end after a
// run of newlines, where BPE splits anyway, so the sum matches the whole count but for a token or two at some
// piece boundaries (an estimate either way; the budget keeps a margin).

/** Texts shorter than this are counted whole. */
export const PIECEWISE_FROM = 1024
/** A paragraph longer than this is cut after a line break (or, for one very long line, anywhere). */
const MAX_PIECE = 2048

export function countTokensPiecewise(text: string): number {
  if (text.length < PIECEWISE_FROM) return countTokens(text)
  let total = 0
  for (const piece of piecesOf(text)) total += countTokens(piece)
  return total
}

/**
 * Cuts `text` after runs of blank lines, then long paragraphs after single newlines; joined, the pieces are `text`.
 * Linear in the text: the next blank line is searched for once per paragraph, not once per piece, and a
 * long line is searched backwards only within its piece.
 */
export function piecesOf(text: string): string[] {
  const pieces: string[] = []
  let start = 0
  let blank = -1
  while (start < text.length) {
    if (blank !== -1 && blank < start) blank = -1
    if (blank === -1) blank = nextBlankLine(text, start)
    let end = blank === text.length ? text.length : pastNewlines(text, blank + 2)
    if (end - start > MAX_PIECE) end = lineEnd(text, start, start + MAX_PIECE)
    pieces.push(text.slice(start, end))
    start = end
  }
  return pieces
}

/** Where the first blank-line run (`\n\n`) at or after `from` starts, or the text's length when there is none. */
function nextBlankLine(text: string, from: number): number {
  const blank = text.indexOf('\n\n', from)
  return blank === -1 ? text.length : blank
}

function pastNewlines(text: string, from: number): number {
  let end = from
  while (text.charCodeAt(end) === 10) end++
  return end
}

/** Just past the last newline in [start, limit), or `limit` when the line is longer than that. */
function lineEnd(text: string, start: number, limit: number): number {
  for (let i = limit - 1; i >= start; i--) if (text.charCodeAt(i) === 10) return i + 1
  return limit
}
