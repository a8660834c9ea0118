import { describe, expect, it } from 'vitest'
import { citationSource, citationsToLinks } from './citations'

describe('citations', () => {
  it('turns a citation tag into a #cite link', () => {
    expect(citationsToLinks('Revenue was <citation-number id="q_3" column="total revenue">1672.00</citation-number>.')).toBe(
      'Revenue was [1672.00](#cite/q_3/total%20revenue).'
    )
  })

  it('leaves other HTML alone (it is shown as text later)', () => {
    expect(citationsToLinks('<b>bold</b>')).toBe('<b>bold</b>')
  })

  it('reads the source back from the link', () => {
    expect(citationSource('#cite/q_3/total%20revenue')).toEqual({ queryId: 'q_3', column: 'total revenue' })
    expect(citationSource('https://example.com')).toBeNull()
  })

  it('keeps a malformed escape in a link as written instead of throwing', () => {
    expect(citationSource('#cite/%E0%A4%A/revenue%')).toEqual({ queryId: '%E0%A4%A', column: 'revenue%' })
  })
})
