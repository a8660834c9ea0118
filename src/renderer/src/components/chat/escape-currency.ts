/**
 * Analysts write money as `$12.4k`: a `$` right before a digit is currency, not the start of KaTeX math
 * (math is `$x$`, `$$…$$`). Code spans and fences are left untouched.
 */
export function escapeCurrency(text: string): string {
  return text
    .split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/(^|[^\\$])\$(?=\d)/g, '$1\\$')))
    .join('')
}
