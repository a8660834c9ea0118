// What the verdict needs to know about an expected SQL without a full parser: whether its outermost query
// orders, and by which of its result columns (so rows tying on those keys may come in any order), and
// whether it rounds. Comments are dropped and string literals masked (same length) first, so a quoted
// 'order by' or a comment never counts.

/** The statement with comments blanked and string/identifier quotes masked, indices kept. */
function masked(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, (text) => ' '.repeat(text.length))
    .replace(/\/\*[\s\S]*?\*\//g, (text) => ' '.repeat(text.length))
    .replace(/'(?:[^']|'')*'/g, (text) => `'${'_'.repeat(text.length - 2)}'`)
}

/** Per character: is it outside every parenthesis (double-quoted identifiers count as text)? */
function depthZeroMask(code: string): boolean[] {
  const top: boolean[] = []
  let depth = 0
  let quoted = false
  for (const char of code) {
    if (char === '"') quoted = !quoted
    if (!quoted && char === '(') depth++
    top.push(depth === 0)
    if (!quoted && char === ')') depth = Math.max(0, depth - 1)
  }
  return top
}

/** Positions of a keyword (a regex source) at depth 0. */
function topLevelMatches(code: string, top: boolean[], keyword: string): { index: number; length: number }[] {
  const found: { index: number; length: number }[] = []
  for (const match of code.matchAll(new RegExp(`\\b${keyword}\\b`, 'gi'))) if (top[match.index]) found.push({ index: match.index, length: match[0].length })
  return found
}

/** Splits at depth-0 commas. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let start = 0
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (char === '"') quoted = !quoted
    else if (!quoted && char === '(') depth++
    else if (!quoted && char === ')') depth--
    else if (!quoted && depth === 0 && char === ',') {
      parts.push(text.slice(start, index))
      start = index + 1
    }
  }
  parts.push(text.slice(start))
  return parts.map((part) => part.trim()).filter((part) => part !== '')
}

/** True when the SQL rounds somewhere (ROUND(…)): its numbers are then compared at their own scale. */
export function roundsNumbers(sql: string): boolean {
  return /\bround\s*\(/i.test(masked(sql))
}

export interface OrderKeys {
  /** Expected result columns (0-based) the outer ORDER BY sorts on, in order, up to the first one not in the result. */
  columns: number[]
  /** The first ORDER BY key that is no result column (then keys after it cannot be checked), if any. */
  unresolved: string | null
}

/** The outer ORDER BY keys as result columns, or null when the outer query does not order (ORDER BY inside a subquery or OVER (…) does not count). */
export function orderByKeys(sql: string, columns: readonly string[]): OrderKeys | null {
  const code = masked(sql)
  const top = depthZeroMask(code)
  const orderBy = topLevelMatches(code, top, 'order\\s+by').at(-1)
  if (!orderBy) return null
  const start = orderBy.index + orderBy.length
  const end = topLevelMatches(code, top, '(limit|offset|fetch|qualify)').find((match) => match.index > start)?.index ?? code.length
  const clause = code.slice(start, end).replace(/;\s*$/, '')
  const select = selectItems(code, top, orderBy.index)
  const names = columns.map((name) => name.toLowerCase())
  const keys: number[] = []
  for (const raw of splitTopLevel(clause)) {
    const key = raw.replace(/\s+nulls\s+(first|last)\s*$/i, '').replace(/\s+(asc|desc)\s*$/i, '').trim()
    if (/^all$/i.test(key)) return { columns: columns.map((_, index) => index), unresolved: null }
    const column = keyColumn(key, names, select)
    if (column === null) return { columns: keys, unresolved: originalText(sql, code, key) }
    keys.push(column)
  }
  return { columns: keys, unresolved: null }
}

function keyColumn(key: string, names: readonly string[], select: readonly SelectItem[]): number | null {
  if (/^\d+$/.test(key)) {
    const position = Number(key) - 1
    return position >= 0 && position < names.length ? position : null
  }
  const identifier = /^(?:(?:"[^"]*"|\w+)\.)*("[^"]*"|\w+)$/.exec(key)
  if (identifier) {
    const name = identifier[1].replace(/^"|"$/g, '').toLowerCase()
    const byName = names.indexOf(name)
    if (byName >= 0) return byName
  }
  const wanted = normalizeExpression(key)
  const item = select.findIndex((candidate) => candidate.expression === wanted)
  return item >= 0 && item < names.length ? item : null
}

interface SelectItem {
  expression: string
}

/** The outer SELECT's items (before FROM), for matching an ORDER BY expression; empty with `*`. */
function selectItems(code: string, top: boolean[], before: number): SelectItem[] {
  const select = topLevelMatches(code, top, 'select')
    .filter((match) => match.index < before)
    .at(-1)
  if (!select) return []
  const start = select.index + select.length
  const from = topLevelMatches(code, top, 'from').find((match) => match.index > start)?.index ?? before
  const list = code.slice(start, Math.min(from, before)).replace(/^\s*distinct\b/i, '')
  const items = splitTopLevel(list)
  if (items.some((item) => /(^|\.)\*$/.test(item))) return []
  return items.map((item) => ({ expression: normalizeExpression(item.replace(/\s+as\s+("[^"]*"|\w+)$/i, '')) }))
}

function normalizeExpression(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').replace(/\s*([(),*+\-/])\s*/g, '$1').trim()
}

/** The key as the author wrote it (string literals unmasked), for the verdict line. */
function originalText(sql: string, code: string, key: string): string {
  const at = code.indexOf(key)
  return at >= 0 ? sql.slice(at, at + key.length) : key
}
