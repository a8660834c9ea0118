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

/** Cuts `text` after runs of blank lines, then long paragraphs after single newlines; joined, the pieces are `text`. */
export function piecesOf(text: string): string[] {
  const pieces: string[] = []
  let start = 0
  while (start < text.length) {
    let end = paragraphEnd(text, start)
    if (end - start > MAX_PIECE) end = lineEnd(text, start, start + MAX_PIECE)
    pieces.push(text.slice(start, end))
    start = end
  }
  return pieces
}

/** Just past the first blank-line run (`\n\n…`) after `start`, or the end of the text. */
function paragraphEnd(text: string, start: number): number {
  const blank = text.indexOf('\n\n', start)
  if (blank === -1) return text.length
  let end = blank + 2
  while (text.charCodeAt(end) === 10) end++
  return end
}

/** Just past the last newline in [start, limit), or `limit` when the line is longer than that. */
function lineEnd(text: string, start: number, limit: number): number {
  const newline = text.lastIndexOf('\n', limit - 1)
  return newline >= start ? newline + 1 : limit
}
