import { describe, expect, it } from 'vitest'
import { orderByKeys, roundsNumbers } from './sql-shape'

describe('orderByKeys', () => {
  const columns = ['author', 'papers', 'year']
  it('maps keys by position, by output name, by qualified column and by the SELECT expression', () => {
    expect(orderByKeys('SELECT a.name AS author, COUNT(*) AS papers, p.year FROM a JOIN p ON … GROUP BY 1, 3 ORDER BY 2 DESC, author', columns)).toEqual({ columns: [1, 0], unresolved: null })
    expect(orderByKeys('SELECT a.name AS author, COUNT(*) AS papers, p.year FROM a GROUP BY 1, 3 ORDER BY count( * ) DESC NULLS LAST, p.year ASC LIMIT 5', columns)).toEqual({ columns: [1, 2], unresolved: null })
    expect(orderByKeys('SELECT * FROM t ORDER BY ALL', columns)).toEqual({ columns: [0, 1, 2], unresolved: null })
  })

  it('stops at the first key that is no result column and names it', () => {
    expect(orderByKeys('SELECT name AS author, papers, year FROM t ORDER BY papers DESC, citations DESC, year', columns)).toEqual({ columns: [1], unresolved: 'citations' })
  })

  it('is null without an outer ORDER BY: one in a subquery, a window, a string or a comment does not count', () => {
    expect(orderByKeys('SELECT * FROM (SELECT a FROM t ORDER BY a) x', columns)).toBeNull()
    expect(orderByKeys('WITH x AS (SELECT a FROM t ORDER BY a) SELECT * FROM x', columns)).toBeNull()
    expect(orderByKeys('SELECT a, row_number() OVER (ORDER BY a) FROM t', columns)).toBeNull()
    expect(orderByKeys("SELECT 'order by' AS x -- order by\nFROM t", columns)).toBeNull()
  })
})

describe('roundsNumbers', () => {
  it('sees ROUND calls but not the word in a string', () => {
    expect(roundsNumbers('SELECT ROUND(AVG(x), 2) FROM t')).toBe(true)
    expect(roundsNumbers("SELECT 'round(' AS label")).toBe(false)
  })
})
