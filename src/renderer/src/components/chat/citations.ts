// The system prompt asks the model to cite numbers as
//   <citation-number id="query_id" column="column">number</citation-number>
// Raw HTML is never rendered, so citations become Markdown links with a `#cite/` target, which the
// Markdown component draws as a number with its source (query and column) on hover.

const CITATION = /<citation-number\s+id="([^"]*)"\s+column="([^"]*)"\s*>([^<]*)<\/citation-number>/g

export const CITATION_PREFIX = '#cite/'

export function citationsToLinks(text: string): string {
  return text.replace(CITATION, (_match, id: string, column: string, value: string) => {
    const label = value.trim().replace(/[[\]]/g, '')
    return `[${label}](${CITATION_PREFIX}${encodeURIComponent(id)}/${encodeURIComponent(column)})`
  })
}

/** The query and column a `#cite/` link points at, or null for an ordinary link. */
export function citationSource(href: string | undefined): { queryId: string; column: string } | null {
  if (!href?.startsWith(CITATION_PREFIX)) return null
  const [queryId = '', column = ''] = href.slice(CITATION_PREFIX.length).split('/').map(decodeOrAsWritten)
  return { queryId, column }
}

/** `decodeURIComponent`, except that malformed escapes (`%E0%A4%A`, a lone `%`) stay as written instead of throwing. */
export function decodeOrAsWritten(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
