import { countTokens, countTokensBy } from './tokens'

// Token counts of long texts, paragraph by paragraph. countTokens caches whole texts, so one changed line in a
// 200 KB RULES.md (or a new memory in a 220 KB system prompt) would cost a full BPE pass, tens of
// milliseconds. Counted in pieces, each cached on its own, the change costs its paragraph. Pieces end after a
// run of newlines, where BPE splits anyway, so the sum matches the whole count but for a token or two at some
// piece boundaries (an estimate either way; the budget keeps a margin). The sum is kept too, under the whole
// text's hash: a prompt whose long parts are all unchanged then costs one hash and one look-up each, not one
// per piece (a 200 KB RULES.md is some 150 pieces).

/** Texts shorter than this are counted whole. */
export const PIECEWISE_FROM = 1024
/** A paragraph longer than this is cut after a line break (or, for one very long line, anywhere). */
const MAX_PIECE = 2048
/**
 * Short paragraphs are joined until a piece is this long: each piece is one look-up in the counts the store
 * remembers, and a 200 KB RULES.md of two-line rules is over a thousand paragraphs.
 */
const MIN_PIECE = 1024

export function countTokensPiecewise(text: string): number {
  return text.length < PIECEWISE_FROM ? countTokens(text) : countTokensBy(text, '/pieces', sumOfPieces)
}

function sumOfPieces(text: string): number {
  let total = 0
  for (const piece of piecesOf(text)) total += countTokens(piece)
  return total
}

/**
 * Cuts `text` after runs of blank lines, joining short paragraphs up to MIN_PIECE and cutting long ones after
 * single newlines; joined, the pieces are `text`. Linear in the text: the next blank line is searched for once
 * per paragraph, not once per piece, and a long line is searched backwards only within its piece.
 */
export function piecesOf(text: string): string[] {
  const pieces: string[] = []
  let blank = -1
  /** Just past the blank-line run that ends the paragraph at `from`, or the text's length. */
  const paragraphEnd = (from: number): number => {
    if (blank === -1 || blank < from) blank = nextBlankLine(text, from)
    return blank === text.length ? text.length : pastNewlines(text, blank + 2)
  }
  let start = 0
  while (start < text.length) {
    let end = paragraphEnd(start)
    if (end - start > MAX_PIECE) end = lineEnd(text, start, start + MAX_PIECE)
    while (end - start < MIN_PIECE && end < text.length) {
      const next = paragraphEnd(end)
      if (next - start > MAX_PIECE) break
      end = next
    }
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
