// Compares the agent's result with the expected one the way an analyst would: column names do not matter
// (nor their order, for up to 4 columns), row order matters only when the expected SQL orders its result,
// numbers are equal within a relative 1e-6 whether they arrive as numbers, bigints or numeric text, and
// dates are compared as ISO strings (a date equals the same date at midnight).

export interface ResultTable {
  columns: string[]
  rows: unknown[][]
}

export type Comparison = { pass: true } | { pass: false; reason: string }

const RELATIVE_TOLERANCE = 1e-6
const MAX_PERMUTED_COLUMNS = 4

type Cell = null | number | string | boolean

export function compareResults(expected: ResultTable, actual: ResultTable, options: { ordered: boolean }): Comparison {
  const width = expected.rows[0]?.length ?? expected.columns.length
  const actualWidth = actual.rows[0]?.length ?? actual.columns.length
  if (expected.rows.length !== actual.rows.length) {
    return { pass: false, reason: `expected ${plural(expected.rows.length, 'row')}, got ${actual.rows.length}` }
  }
  if (expected.rows.length > 0 && width !== actualWidth) {
    return { pass: false, reason: `expected ${plural(width, 'column')}, got ${actualWidth}` }
  }
  const wanted = expected.rows.map((row) => row.map(normalize))
  const got = actual.rows.map((row) => row.map(normalize))
  const first = compareRows(wanted, got, options.ordered)
  if (first.pass || width > MAX_PERMUTED_COLUMNS) return first
  for (const order of permutations(width)) {
    if (compareRows(wanted, got.map((row) => order.map((i) => row[i])), options.ordered).pass) return { pass: true }
  }
  return first
}

function compareRows(wanted: Cell[][], got: Cell[][], ordered: boolean): Comparison {
  if (ordered) {
    const index = wanted.findIndex((row, i) => !rowsEqual(row, got[i]))
    return index < 0 ? { pass: true } : { pass: false, reason: `row ${index + 1} differs: expected ${show(wanted[index])}, got ${show(got[index])}` }
  }
  const sortedWanted = [...wanted].sort(byKey)
  const sortedGot = [...got].sort(byKey)
  if (sortedWanted.every((row, i) => rowsEqual(row, sortedGot[i]))) return { pass: true }
  // Sorting by rounded keys can misalign rows whose numbers differ within the tolerance: match greedily.
  const unused = new Set(got.keys())
  for (const row of wanted) {
    const match = [...unused].find((i) => rowsEqual(row, got[i]))
    if (match === undefined) return { pass: false, reason: `no row of the result matches expected row ${show(row)}` }
    unused.delete(match)
  }
  return { pass: true }
}

function rowsEqual(a: Cell[], b: Cell[]): boolean {
  return a.length === b.length && a.every((cell, i) => cellsEqual(cell, b[i]))
}

function cellsEqual(a: Cell, b: Cell): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a === b) return true
    return Math.abs(a - b) <= RELATIVE_TOLERANCE * Math.max(Math.abs(a), Math.abs(b))
  }
  return a === b
}

const NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?)?(?:Z|[+-]00(?::?00)?)?$/

/** One comparable form per value: numbers as numbers, dates as ISO text, other text trimmed. */
export function normalize(value: unknown): Cell {
  if (value === null || value === undefined) return null
  if (typeof value === 'number') return value
  if (typeof value === 'bigint') return Number(value)
  if (typeof value === 'boolean') return value
  if (value instanceof Date) return normalizeText(value.toISOString())
  if (typeof value === 'string') return normalizeText(value)
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner))
}

function normalizeText(raw: string): Cell {
  const text = raw.trim()
  if (NUMERIC.test(text)) return Number(text)
  const date = DATE_TIME.exec(text)
  if (!date) return text
  const [, day, time, fraction] = date
  const seconds = time && time.length === 5 ? `${time}:00` : time
  const wholeFraction = fraction && /[1-9]/.test(fraction) ? fraction.replace(/0+$/, '') : ''
  if (!seconds || (seconds === '00:00:00' && !wholeFraction)) return day
  return `${day}T${seconds}${wholeFraction}`
}

function byKey(a: Cell[], b: Cell[]): number {
  const left = key(a)
  const right = key(b)
  return left < right ? -1 : left > right ? 1 : 0
}

function key(row: Cell[]): string {
  return JSON.stringify(row.map((cell) => (typeof cell === 'number' ? Number(cell.toPrecision(6)) : cell)))
}

/** Every order of the columns 0..n-1 (the given order included; it is only re-checked, which is cheap). */
function permutations(n: number): number[][] {
  if (n === 0) return [[]]
  return permutations(n - 1).flatMap((rest) =>
    Array.from({ length: n }, (_, at) => [...rest.slice(0, at), n - 1, ...rest.slice(at)])
  )
}

function show(row: Cell[] | undefined): string {
  const text = JSON.stringify(row ?? null)
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

/** True when the statement's outermost query has ORDER BY (not only inside a subquery or OVER (…)). */
export function hasTopLevelOrderBy(sql: string): boolean {
  const code = sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"]|"")*"/g, '""')
  let depth = 0
  let topLevel = ''
  for (const char of code) {
    if (char === '(') depth++
    else if (char === ')') depth = Math.max(0, depth - 1)
    else if (depth === 0) topLevel += char
  }
  return /\border\s+by\b/i.test(topLevel)
}
