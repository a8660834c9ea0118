import { describe, expect, it } from 'vitest'
import { compareResults, normalize, type CompareOptions } from './compare'

// The comparison on hand-made tables, one rule per test; the verdict corpus (verdict-corpus.test.ts) judges
// real query results from DuckDB and Postgres.

const table = (rows: unknown[][], columns = rows[0]?.map((_, i) => `c${i}`) ?? []) => ({ columns, rows })
const unordered: CompareOptions = { ordered: false, orderKeys: [], extraColumns: 'ignore', duplicates: 'count', expectedRounds: false }

describe('compareResults', () => {
  it('ignores column names', () => {
    expect(compareResults(table([[1]], ['total']), table([[1]], ['sum(amount)']), unordered)).toEqual({ pass: true, notes: [] })
  })

  it('treats numbers, bigints, decimal text and numeric text alike within 1e-6, and says so', () => {
    expect(compareResults(table([['1672.00', 3n]]), table([[1672.0000001, '3']]), unordered)).toEqual({
      pass: true,
      notes: ['numbers equal within 1e-6 or at the expected scale', 'numeric text read as numbers']
    })
    expect(compareResults(table([[1672]]), table([[1672.1]]), unordered)).toEqual({
      pass: false,
      rule: 'columns',
      reason: "no answer column holds the values of expected column 1 (c0): [1672]; the answer's column holds [1672.1]"
    })
  })

  it('ignores row order unless asked to keep it', () => {
    const expected = table([['a', 1], ['b', 2]])
    const actual = table([['b', 2], ['a', 1]])
    expect(compareResults(expected, actual, unordered)).toEqual({ pass: true, notes: [] })
    expect(compareResults(expected, actual, { ...unordered, ordered: true, orderKeys: [1] })).toEqual({
      pass: false,
      rule: 'row-order',
      reason: 'row 1 differs: expected ["a",1], got ["b",2]'
    })
  })

  it('matches columns by content for any width: six columns in reverse order, one extra', () => {
    const row = (n: number) => [`r${n}`, n, n * 10, `${n}x`, n % 2 === 0, n * 0.5]
    const expected = table([1, 2, 3].map(row))
    const actual = table([1, 2, 3].map((n) => ['note', ...row(n).reverse()]), ['extra_note', 'f', 'e', 'd', 'c', 'b', 'a'])
    expect(compareResults(expected, actual, unordered)).toEqual({ pass: true, notes: ['columns matched by content in another order', 'extra column extra_note ignored'] })
    expect(compareResults(expected, actual, { ...unordered, extraColumns: 'forbid' })).toEqual({ pass: false, rule: 'extra-columns', reason: 'the answer has extra column extra_note (extra_columns: forbid)' })
  })

  it('confirms matched columns row by row: the same values per column, paired differently, fail', () => {
    const expected = table([['a', 1], ['b', 2]])
    const crossed = table([['a', 2], ['b', 1]])
    expect(compareResults(expected, crossed, unordered)).toEqual({ pass: false, rule: 'rows', reason: 'no row of the answer matches expected row ["a",1]' })
  })

  it('does not call extra columns in between another order', () => {
    expect(compareResults(table([['a', 1]]), table([['a', 'note', 1]], ['name', 'note', 'n']), unordered)).toEqual({ pass: true, notes: ['extra column note ignored'] })
  })

  it('picks, among answer columns holding the same values, the one that pairs up row by row', () => {
    const expected = table([['a', 1], ['b', 2], ['c', 3]])
    const actual = table([[3, 'a', 1], [2, 'b', 2], [1, 'c', 3]])
    expect(compareResults(expected, actual, unordered)).toMatchObject({ pass: true })
  })

  it('lets rows tying on the ORDER BY keys come in any order, nothing else', () => {
    const expected = table([['x', 5], ['y', 3], ['z', 3], ['w', 1]])
    const tiesSwapped = table([['x', 5], ['z', 3], ['y', 3], ['w', 1]])
    const ordered = { ...unordered, ordered: true, orderKeys: [1] }
    expect(compareResults(expected, tiesSwapped, ordered)).toEqual({ pass: true, notes: ['rows tying on the ORDER BY keys came in another order, which is allowed'] })
    const outOfOrder = table([['x', 5], ['w', 1], ['y', 3], ['z', 3]])
    expect(compareResults(expected, outOfOrder, ordered)).toEqual({ pass: false, rule: 'row-order', reason: 'rows 2–3 (tied on the ORDER BY keys) do not hold expected row ["z",3]' })
  })

  it('counts duplicate rows unless told to ignore them', () => {
    const expected = table([['a'], ['b']])
    const repeated = table([['a'], ['a'], ['b']])
    expect(compareResults(expected, repeated, unordered)).toEqual({ pass: false, rule: 'row-count', reason: 'expected 2 rows, got 3' })
    expect(compareResults(expected, repeated, { ...unordered, duplicates: 'ignore' })).toEqual({ pass: true, notes: ['duplicate rows ignored (duplicates: ignore)'] })
    expect(compareResults(table([['a'], ['a']]), table([['a'], ['b']]), unordered)).toMatchObject({ pass: false, rule: 'columns' })
  })

  it('rounds the answer to the expected scale only where the expected value is rounded or a fixed-scale decimal', () => {
    expect(compareResults(table([[3.33]]), table([[3.3333333]]), { ...unordered, expectedRounds: true })).toEqual({ pass: true, notes: ['numbers equal within 1e-6 or at the expected scale'] })
    expect(compareResults(table([['3.30']]), table([[3.2999]]), unordered)).toMatchObject({ pass: true })
    expect(compareResults(table([[3.33]]), table([[3.3333333]]), unordered)).toMatchObject({ pass: false })
    // A count is never a rounded 3.4.
    expect(compareResults(table([[3]]), table([[3.4]]), { ...unordered, expectedRounds: true })).toMatchObject({ pass: false })
  })

  it('compares dates as ISO strings, a date equal to its midnight, NULL equal to NULL', () => {
    expect(compareResults(table([['2024-01-01 00:00:00']]), table([[new Date('2024-01-01T00:00:00Z')]]), unordered)).toEqual({ pass: true, notes: [] })
    expect(compareResults(table([['2024-01-01']]), table([['2024-01-01T00:00:00.000Z']]), unordered)).toEqual({ pass: true, notes: ['a date equals its midnight timestamp'] })
    expect(compareResults(table([[null, 1]]), table([[null, 1]]), unordered)).toEqual({ pass: true, notes: [] })
    expect(normalize('2024-03-05 10:20:30.500000')).toBe('2024-03-05T10:20:30.5')
  })

  it('says how the shapes differ', () => {
    expect(compareResults(table([[1], [2]]), table([[1]]), unordered)).toEqual({ pass: false, rule: 'row-count', reason: 'expected 2 rows, got 1' })
    expect(compareResults(table([[1, 2]]), table([[1]]), unordered)).toEqual({ pass: false, rule: 'columns', reason: 'expected 2 columns, the answer has 1' })
    expect(compareResults(table([], ['a']), table([], ['b', 'c']), unordered)).toEqual({ pass: true, notes: [] })
  })

  it('matches rows whose numbers differ within the tolerance even when sorting would misalign them', () => {
    const expected = table([[1.0000004, 'x'], [1.0000006, 'y']])
    const actual = table([[1.0000005, 'y'], [1.0000005, 'x']])
    expect(compareResults(expected, actual, unordered)).toMatchObject({ pass: true })
  })

  it('stays fast on many interchangeable columns: twelve identical columns', () => {
    const rows = Array.from({ length: 50 }, (_, index) => Array.from({ length: 12 }, () => index % 3))
    expect(compareResults(table(rows), table(rows.map((row) => [...row, 9])), unordered)).toMatchObject({ pass: true })
  })
})
