/** One line, single spaces, a final full stop unless it already ends a sentence. */
export function normaliseMemoryContent(content: string): string {
  const flat = content.replace(/\s+/g, ' ').trim()
  if (flat === '') return ''
  return /[.!?…。！？]["')\]]?$/.test(flat) ? flat : flat + '.'
}

/** Keeps the start and the end of a long text and says how much of the middle was cut. */
export function cutMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text
  const marker = (cut: number) => ` […${cut} characters cut…] `
  const keep = Math.max(0, maxChars - marker(text.length).length)
  const head = Math.ceil(keep / 2)
  const tail = keep - head
  return text.slice(0, head) + marker(text.length - keep) + (tail > 0 ? text.slice(text.length - tail) : '')
}
