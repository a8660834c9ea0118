// Compares the agent's result with an expected one by the verdict rules the README writes down:
// - columns are matched by content, whatever their names and order, for any width: each expected column
//   to an answer column holding the same values, then confirmed row by row; extra answer columns are
//   ignored unless the case forbids them;
// - row order counts only when asked (the caller decides), and then rows tying on the ORDER BY keys may
//   come in any order among themselves;
// - numbers are equal within a relative 1e-6, or after rounding the answer to the expected value's scale
//   (when the expected value is rounded or a fixed-scale decimal); numeric text equals the number; a date
//   equals the same date at midnight; NULL equals NULL;
// - duplicate rows count (a multiset) unless the case says `duplicates: ignore` (then sets).
// A pass says which rules it needed (`notes`); a failure names the rule that decided it.

export interface ResultTable {
  columns: string[]
  rows: unknown[][]
}

export interface CompareOptions {
  /** Judge row order. */
  ordered: boolean
  /** With `ordered`: the expected columns of the ORDER BY keys; rows equal on all of them form one tie group. */
  orderKeys: readonly number[]
  extraColumns: 'ignore' | 'forbid'
  duplicates: 'count' | 'ignore'
  /** The expected SQL rounds: its numbers with decimals are compared at their own scale. */
  expectedRounds: boolean
}

/** The rule that failed a comparison. */
export type FailedRule = 'row-count' | 'columns' | 'extra-columns' | 'rows' | 'row-order'

export type Comparison = { pass: true; notes: string[] } | { pass: false; rule: FailedRule; reason: string }

const RELATIVE_TOLERANCE = 1e-6
/** Tolerance-aware greedy matching is quadratic: beyond this many rows the sorted comparison decides. */
const MAX_GREEDY_ROWS = 2_000
/** Column assignments tried before giving up (only many columns holding the same values come near it). */
const MAX_ASSIGNMENT_TRIES = 5_000

type Cell = null | number | string | boolean

interface Leniency {
  /** Numbers within RELATIVE_TOLERANCE and, where it applies, after rounding to the expected scale. */
  numbers: boolean
  numericText: boolean
  midnight: boolean
  /** Rows tying on the ORDER BY keys may swap. */
  ties: boolean
  /** Duplicate rows as the case says (false: always counted). */
  duplicates: boolean
}

const LENIENT: Leniency = { numbers: true, numericText: true, midnight: true, ties: true, duplicates: true }

export function compareResults(expected: ResultTable, actual: ResultTable, options: CompareOptions): Comparison {
  const judged = judge(expected, actual, options, LENIENT)
  if (!judged.pass) return judged
  const notes: string[] = []
  const needed = (leniency: Partial<Leniency>): boolean => !judge(expected, actual, options, { ...LENIENT, ...leniency }).pass
  const { assignment } = judged
  const answerWidth = widthOf(actual)
  // Extra columns in between do not make another order; a later expected column taken from further left does.
  if (assignment.some((column, index) => index > 0 && column < assignment[index - 1])) notes.push('columns matched by content in another order')
  const extra = actual.columns.filter((_, index) => index < answerWidth && !assignment.includes(index))
  if (extra.length > 0 && expected.rows.length > 0) notes.push(`extra ${extra.length === 1 ? 'column' : 'columns'} ${extra.join(', ')} ignored`)
  if (options.ordered && needed({ ties: false })) notes.push('rows tying on the ORDER BY keys came in another order, which is allowed')
  if (options.duplicates === 'ignore' && needed({ duplicates: false })) notes.push('duplicate rows ignored (duplicates: ignore)')
  // Each probe re-judges the tables: only where the kind of value it is about occurs at all.
  const kinds = cellKinds(expected, actual)
  if (kinds.fractions && needed({ numbers: false })) notes.push(options.expectedRounds || hasDecimalText(expected) ? 'numbers equal within 1e-6 or at the expected scale' : 'numbers equal within 1e-6')
  if (kinds.numericText && needed({ numericText: false })) notes.push('numeric text read as numbers')
  if (kinds.dates && needed({ midnight: false })) notes.push('a date equals its midnight timestamp')
  return { pass: true, notes }
}

type Judged = { pass: true; assignment: number[] } | { pass: false; rule: FailedRule; reason: string }

function judge(expected: ResultTable, actual: ResultTable, options: CompareOptions, leniency: Leniency): Judged {
  const width = widthOf(expected)
  const answerWidth = widthOf(actual)
  const scales = leniency.numbers ? columnScales(expected.rows, width, options.expectedRounds) : new Array<number | null>(width).fill(null)
  const setSemantics = leniency.duplicates && options.duplicates === 'ignore'
  const wanted = maybeDistinct(expected.rows.map((row) => row.map((cell) => normalize(cell, leniency))), setSemantics)
  const got = maybeDistinct(actual.rows.map((row) => row.map((cell) => normalize(cell, leniency))), setSemantics)
  if (wanted.length === 0 && got.length === 0) return { pass: true, assignment: [] }
  // With sets, answer rows that differ only in extra columns merge once projected: only too few can fail here.
  if (wanted.length !== got.length && (!setSemantics || got.length < wanted.length || wanted.length === 0)) {
    return { pass: false, rule: 'row-count', reason: `expected ${plural(wanted.length, setSemantics ? 'distinct row' : 'row')}, got ${got.length}` }
  }
  if (answerWidth < width) return { pass: false, rule: 'columns', reason: `expected ${plural(width, 'column')}, the answer has ${answerWidth}` }

  const equal = (a: Cell, b: Cell, column: number): boolean => cellsEqual(a, b, scales[column], leniency.numbers)
  const answerColumns = Array.from({ length: answerWidth }, (_, answerColumn) => sortedColumn(got, answerColumn, setSemantics))
  const candidates = Array.from({ length: width }, (_, column) => {
    const values = sortedColumn(wanted, column, setSemantics)
    return answerColumns.flatMap((other, answerColumn) => (other.length === values.length && values.every((value, index) => equal(value, other[index], column)) ? [answerColumn] : []))
  })
  const unmatched = candidates.findIndex((list) => list.length === 0)
  if (unmatched >= 0) {
    const name = expected.columns[unmatched] ? ` (${expected.columns[unmatched]})` : ''
    const answer = answerWidth === 1 ? `; the answer's column holds ${show(answerColumns[0])}` : ''
    return { pass: false, rule: 'columns', reason: `no answer column holds the values of expected column ${unmatched + 1}${name}: ${show(sortedColumn(wanted, unmatched, setSemantics))}${answer}` }
  }

  const groups = options.ordered ? tieGroups(wanted, leniency.ties ? options.orderKeys : null) : null
  const search = findAssignment(wanted, got, candidates, equal, groups, setSemantics)
  if (!search.assignment) {
    if (search.exhausted) return { pass: false, rule: 'columns', reason: `could not match the columns within ${MAX_ASSIGNMENT_TRIES} tries (many columns hold the same values)` }
    // The reason is told on all the columns (the search may have stopped at a few): for order, with the
    // assignment that gives the right rows; otherwise with a plausible one.
    const unordered = groups ? findAssignment(wanted, got, candidates, equal, null, setSemantics).assignment : null
    const shown = unordered ?? plausibleAssignment(candidates)
    const full = shown ? rowsMatch(wanted, got, shown.map((column, index) => [index, column] as const), equal, unordered ? groups : null, setSemantics) : null
    const reason = full && !full.ok ? full.reason : search.reason
    return { pass: false, rule: unordered ? 'row-order' : 'rows', reason }
  }
  if (options.extraColumns === 'forbid' && answerWidth > width) {
    const extra = actual.columns.filter((_, index) => !search.assignment?.includes(index))
    return { pass: false, rule: 'extra-columns', reason: `the answer has extra ${extra.length === 1 ? 'column' : 'columns'} ${extra.join(', ')} (extra_columns: forbid)` }
  }
  return { pass: true, assignment: search.assignment }
}

type Equal = (a: Cell, b: Cell, expectedColumn: number) => boolean

/**
 * Assigns each expected column one answer column among its candidates (same values), confirming the rows on
 * the columns assigned so far at every step, so a wrong choice is dropped early. Answer columns identical to
 * one already tried at that step are skipped. Tries the columns with fewest candidates first.
 */
function findAssignment(wanted: Cell[][], got: Cell[][], candidates: number[][], equal: Equal, groups: number[] | null, distinct: boolean): { assignment: number[] | null; reason: string; exhausted: boolean } {
  const width = candidates.length
  const order = Array.from({ length: width }, (_, column) => column).sort((a, b) => candidates[a].length - candidates[b].length)
  const identity = columnIdentities(got)
  const chosen = new Array<number>(width).fill(-1)
  const used = new Set<number>()
  let tries = 0
  let deepest = { depth: -1, reason: '' }
  const step = (depth: number): boolean => {
    if (depth === width) return true
    const column = order[depth]
    const tried = new Set<string>()
    for (const answerColumn of candidates[column]) {
      if (used.has(answerColumn) || tried.has(identity[answerColumn])) continue
      tried.add(identity[answerColumn])
      if (++tries > MAX_ASSIGNMENT_TRIES) return false
      chosen[column] = answerColumn
      used.add(answerColumn)
      // A forced choice (the only candidate) prunes nothing: the rows are checked after a real choice and at the end.
      const check = depth === width - 1 || candidates[column].length > 1
      const pairs = order.slice(0, depth + 1).map((expectedColumn) => [expectedColumn, chosen[expectedColumn]] as const)
      // As sets, a few columns can merge rows the full width keeps apart: before the end, only compare sets.
      const stepGroups = distinct && depth < width - 1 ? null : groups
      const rows = check ? rowsMatch(wanted, got, pairs, equal, stepGroups, distinct) : ({ ok: true } as const)
      if (rows.ok && step(depth + 1)) return true
      if (!rows.ok && depth >= deepest.depth) deepest = { depth, reason: rows.reason }
      used.delete(answerColumn)
      chosen[column] = -1
    }
    return false
  }
  if (step(0)) return { assignment: chosen, reason: '', exhausted: false }
  return { assignment: null, reason: deepest.reason || 'no arrangement of the answer columns gives the expected rows', exhausted: tries > MAX_ASSIGNMENT_TRIES }
}

/** Each expected column its first unused candidate, or null when they cannot all get one. */
function plausibleAssignment(candidates: number[][]): number[] | null {
  const used = new Set<number>()
  const chosen: number[] = []
  for (const list of candidates) {
    const column = list.find((candidate) => !used.has(candidate))
    if (column === undefined) return null
    used.add(column)
    chosen.push(column)
  }
  return chosen
}

/**
 * Compares the rows on the given (expected column, answer column) pairs, in any order or group by group;
 * `distinct`: as sets of the rows projected on those columns (first occurrences kept, in order).
 */
function rowsMatch(wanted: Cell[][], got: Cell[][], pairs: ReadonlyArray<readonly [number, number]>, equal: Equal, groups: number[] | null, distinct: boolean): { ok: true } | { ok: false; reason: string } {
  // Shown in the expected column order, whatever order the pairs were chosen in.
  const sorted = [...pairs].sort((a, b) => a[0] - b[0])
  const left = maybeDistinct(wanted.map((row) => sorted.map(([column]) => row[column])), distinct)
  const right = maybeDistinct(got.map((row) => sorted.map(([, column]) => row[column])), distinct)
  if (left.length !== right.length) return { ok: false, reason: `expected ${plural(left.length, 'distinct row')}, the answer has ${right.length} on the matched columns` }
  const equalRows = (a: Cell[], b: Cell[]): boolean => a.every((cell, index) => equal(cell, b[index], sorted[index][0]))
  if (!groups) {
    const missing = unmatchedRow(left, right, equalRows)
    return missing === null ? { ok: true } : { ok: false, reason: `no row of the answer matches expected row ${show(missing)}` }
  }
  let start = 0
  for (const size of groups) {
    const mine = left.slice(start, start + size)
    const theirs = right.slice(start, start + size)
    const missing = theirs.length === mine.length ? unmatchedRow(mine, theirs, equalRows) : mine[0]
    if (missing !== null) {
      const where = size === 1 ? `row ${start + 1} differs: expected ${show(mine[0])}, got ${show(theirs[0] ?? null)}` : `rows ${start + 1}–${start + size} (tied on the ORDER BY keys) do not hold expected row ${show(missing)}`
      return { ok: false, reason: where }
    }
    start += size
  }
  return { ok: true }
}

/** An expected row with no partner among `got` (as multisets), or null when every row has one. */
function unmatchedRow(wanted: Cell[][], got: Cell[][], equalRows: (a: Cell[], b: Cell[]) => boolean): Cell[] | null {
  const sortedWanted = [...wanted].sort(compareRows)
  const sortedGot = [...got].sort(compareRows)
  const first = sortedWanted.findIndex((row, index) => !equalRows(row, sortedGot[index]))
  if (first < 0) return null
  if (wanted.length > MAX_GREEDY_ROWS) return sortedWanted[first]
  // Sorting can misalign rows whose numbers differ within the tolerance: match greedily.
  const unused = new Set(got.keys())
  for (const row of wanted) {
    const match = [...unused].find((index) => equalRows(row, got[index]))
    if (match === undefined) return row
    unused.delete(match)
  }
  return null
}

/** Sizes of the runs of consecutive expected rows equal on the keys (one row each when keys is null). */
function tieGroups(rows: Cell[][], keys: readonly number[] | null): number[] {
  if (!keys) return rows.map(() => 1)
  const groups: number[] = []
  rows.forEach((row, index) => {
    const previous = rows[index - 1]
    if (previous && keys.every((key) => cellsEqual(row[key], previous[key], null, true))) groups[groups.length - 1]++
    else groups.push(1)
  })
  return groups
}

function sortedColumn(rows: Cell[][], column: number, distinct: boolean): Cell[] {
  const values = rows.map((row) => row[column]).sort(compareCells)
  return distinct ? values.filter((value, index) => index === 0 || compareCells(value, values[index - 1]) !== 0) : values
}

/** A key per answer column: columns with the same key are interchangeable. */
function columnIdentities(rows: Cell[][]): string[] {
  const width = rows[0]?.length ?? 0
  return Array.from({ length: width }, (_, column) => JSON.stringify(rows.map((row) => row[column])))
}

function maybeDistinct(rows: Cell[][], distinct: boolean): Cell[][] {
  if (!distinct) return rows
  const seen = new Set<string>()
  return rows.filter((row) => {
    const key = JSON.stringify(row.map((cell) => (typeof cell === 'number' ? Number(cell.toPrecision(9)) : cell)))
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function cellsEqual(expected: Cell, actual: Cell, scale: number | null, lenient: boolean): boolean {
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (expected === actual) return true
    if (!lenient) return false
    if (Math.abs(expected - actual) <= RELATIVE_TOLERANCE * Math.max(Math.abs(expected), Math.abs(actual))) return true
    if (scale === null) return false
    const rounded = Number(actual.toFixed(scale))
    return Math.abs(rounded - expected) <= 1e-9 * Math.max(1, Math.abs(expected))
  }
  return expected === actual
}

/**
 * Per expected column, the scale its numbers are rounded to, or null: the decimals of a fixed-scale decimal
 * the engine returned as text ("3.30" → 2), or, when the expected SQL rounds, the most decimals of its
 * numbers (integers never: a count of 3 is not 3.4 rounded).
 */
function columnScales(rows: unknown[][], width: number, sqlRounds: boolean): (number | null)[] {
  return Array.from({ length: width }, (_, column) => {
    let scale: number | null = null
    for (const row of rows) {
      const value = row[column]
      const text = typeof value === 'string' ? value.trim() : sqlRounds && typeof value === 'number' && Number.isFinite(value) ? String(value) : null
      const decimals = text && /^[-+]?\d*\.(\d+)$/.exec(text)?.[1]
      if (decimals) scale = Math.max(scale ?? 0, decimals.length)
    }
    return scale
  })
}

/** Which kinds of value the two tables hold: numbers with fractions, numeric text, dates or timestamps. */
function cellKinds(...tables: ResultTable[]): { fractions: boolean; numericText: boolean; dates: boolean } {
  const kinds = { fractions: false, numericText: false, dates: false }
  for (const table of tables) {
    for (const row of table.rows) {
      for (const cell of row) {
        if (typeof cell === 'number') kinds.fractions ||= !Number.isInteger(cell)
        else if (cell instanceof Date) kinds.dates = true
        else if (typeof cell === 'string') {
          const text = cell.trim()
          if (NUMERIC.test(text)) {
            kinds.numericText = true
            kinds.fractions ||= text.includes('.') || /e/i.test(text)
          } else kinds.dates ||= DATE_TIME.test(text)
        }
      }
    }
  }
  return kinds
}

function hasDecimalText(table: ResultTable): boolean {
  return table.rows.some((row) => row.some((cell) => typeof cell === 'string' && /^[-+]?\d*\.\d+$/.test(cell.trim())))
}

const TYPE_RANK = { object: 0, boolean: 1, number: 2, string: 3 } as const

function compareCells(a: Cell, b: Cell): number {
  const rankA = TYPE_RANK[typeof a as keyof typeof TYPE_RANK] ?? 0
  const rankB = TYPE_RANK[typeof b as keyof typeof TYPE_RANK] ?? 0
  if (rankA !== rankB) return rankA - rankB
  if (a === b || a === null || b === null) return 0
  return a < b ? -1 : 1
}

function compareRows(a: Cell[], b: Cell[]): number {
  for (let index = 0; index < a.length; index++) {
    const order = compareCells(a[index], b[index])
    if (order !== 0) return order
  }
  return 0
}

const NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?)?(Z|[+-]00(?::?00)?)?$/

/** One comparable form per value: numbers as numbers, dates and timestamps as one ISO text, other text trimmed. */
export function normalize(value: unknown, leniency: Pick<Leniency, 'numericText' | 'midnight'> = LENIENT): Cell {
  if (value === null || value === undefined) return null
  if (typeof value === 'number') return value
  if (typeof value === 'bigint') return Number(value)
  if (typeof value === 'boolean') return value
  if (value instanceof Date) return normalizeText(value.toISOString(), leniency)
  if (typeof value === 'string') return normalizeText(value, leniency)
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner))
}

function normalizeText(raw: string, leniency: Pick<Leniency, 'numericText' | 'midnight'>): Cell {
  const text = raw.trim()
  if (NUMERIC.test(text)) return leniency.numericText ? Number(text) : `number:${Number(text)}`
  const date = DATE_TIME.exec(text)
  if (!date) return text
  const [, day, time, fraction] = date
  const seconds = time && time.length === 5 ? `${time}:00` : time
  const wholeFraction = fraction && /[1-9]/.test(fraction) ? fraction.replace(/0+$/, '') : ''
  if (!seconds) return day
  if (leniency.midnight && seconds === '00:00:00' && !wholeFraction) return day
  return `${day}T${seconds}${wholeFraction}`
}

function widthOf(table: ResultTable): number {
  return table.rows[0]?.length ?? table.columns.length
}

function show(row: readonly Cell[] | null): string {
  const text = JSON.stringify(row ?? null)
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
