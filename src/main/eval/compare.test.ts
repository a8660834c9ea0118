import { describe, expect, it } from 'vitest'
import { compareResults, hasTopLevelOrderBy, normalize } from './compare'

const table = (rows: unknown[][], columns = rows[0]?.map((_, i) => `c${i}`) ?? []) => ({ columns, rows })
const unordered = { ordered: false }

describe('compareResults', () => {
  it('ignores column names', () => {
    expect(compareResults(table([[1]], ['total']), table([[1]], ['sum(amount)']), unordered)).toEqual({ pass: true })
  })

  it('treats numbers, bigints, decimal text and numeric text alike within 1e-6', () => {
    expect(compareResults(table([['1672.00', 3n]]), table([[1672.0000001, '3']]), unordered)).toEqual({ pass: true })
    expect(compareResults(table([[1672]]), table([[1672.1]]), unordered)).toEqual({
      pass: false,
      reason: 'no row of the result matches expected row [1672]'
    })
  })

  it('ignores row order unless asked to keep it', () => {
    const expected = table([['a', 1], ['b', 2]])
    const actual = table([['b', 2], ['a', 1]])
    expect(compareResults(expected, actual, unordered)).toEqual({ pass: true })
    expect(compareResults(expected, actual, { ordered: true })).toEqual({
      pass: false,
      reason: 'row 1 differs: expected ["a",1], got ["b",2]'
    })
  })

  it('accepts the same columns in another order', () => {
    expect(compareResults(table([['north', 10]]), table([[10, 'north']]), unordered)).toEqual({ pass: true })
  })

  it('compares dates as ISO strings, a date equal to its midnight', () => {
    expect(compareResults(table([['2024-01-01 00:00:00']]), table([[new Date('2024-01-01T00:00:00Z')]]), unordered)).toEqual({ pass: true })
    expect(compareResults(table([['2024-01-01']]), table([['2024-01-01T00:00:00.000Z']]), unordered)).toEqual({ pass: true })
    expect(normalize('2024-03-05 10:20:30.500000')).toBe('2024-03-05T10:20:30.5')
  })

  it('says how the shapes differ', () => {
    expect(compareResults(table([[1], [2]]), table([[1]]), unordered)).toEqual({ pass: false, reason: 'expected 2 rows, got 1' })
    expect(compareResults(table([[1]]), table([[1, 2]]), unordered)).toEqual({ pass: false, reason: 'expected 1 column, got 2' })
  })

  it('matches rows whose numbers differ within the tolerance even when sorting would misalign them', () => {
    const expected = table([[1.0000004, 'x'], [1.0000006, 'y']])
    const actual = table([[1.0000005, 'y'], [1.0000005, 'x']])
    expect(compareResults(expected, actual, unordered)).toEqual({ pass: true })
  })
})

describe('hasTopLevelOrderBy', () => {
  it('sees the outer ORDER BY only', () => {
    expect(hasTopLevelOrderBy('SELECT a FROM t ORDER BY a')).toBe(true)
    expect(hasTopLevelOrderBy('WITH x AS (SELECT a FROM t ORDER BY a) SELECT * FROM x')).toBe(false)
    expect(hasTopLevelOrderBy('SELECT a, row_number() OVER (ORDER BY a) FROM t')).toBe(false)
    expect(hasTopLevelOrderBy("SELECT 'order by' AS x -- order by\nFROM t")).toBe(false)
  })
})
