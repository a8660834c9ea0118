// Technical ids said in an analyst's words; the id itself stays available in a tooltip.

/** `0776da_q1` → "query 1" (the n-th query of its answer); other ids are returned as they are. */
export function queryLabel(queryId: string | null | undefined): string {
  if (!queryId) return 'a query'
  const numbered = /_q(\d+)$/.exec(queryId)
  return numbered ? `query ${numbered[1]}` : `query ${queryId}`
}

const ARCHIVED_HISTORY = /chat:[^\s#;,]+#archived-history/g

export interface PlainPiece {
  text: string
  /** The technical id this piece stands for (shown as a tooltip), when it is one. */
  id?: string
}

/** Splits text so ids like `chat:<uuid>#archived-history` read as plain words, keeping the id. */
export function plainPieces(text: string): PlainPiece[] {
  const pieces: PlainPiece[] = []
  let at = 0
  for (const match of text.matchAll(ARCHIVED_HISTORY)) {
    if (match.index > at) pieces.push({ text: text.slice(at, match.index) })
    pieces.push({ text: 'the archive of earlier messages', id: match[0] })
    at = match.index + match[0].length
  }
  if (at < text.length) pieces.push({ text: text.slice(at) })
  return pieces
}

/** How the project's prompt file changed the system prompt, in words. */
export const OVERRIDE_LABELS: Record<string, string> = {
  default: 'built-in prompt',
  replaced: 'replaced by project file',
  wrapped: 'built-in inside project file',
  runtime: 'complete prompt given to this run'
}
