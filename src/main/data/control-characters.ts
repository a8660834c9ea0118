// Text from a database or a project shown where a raw control character would do harm: a terminal (ESC
// sequences, a carriage return that overwrites a line) or a Markdown file (a newline that starts a heading).

/** Control characters as visible escapes (`\n`, `\u001b`), so a name can neither forge a line nor drive a terminal. */
export function escapeControlCharacters(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => {
    if (char === '\n') return '\\n'
    if (char === '\r') return '\\r'
    if (char === '\t') return '\\t'
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
}
