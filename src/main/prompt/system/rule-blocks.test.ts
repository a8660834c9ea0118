import { describe, expect, it } from 'vitest'
import { shortTitle, slugOf, splitRuleBlocks } from './rule-blocks'

describe('splitRuleBlocks', () => {
  const rules = 'Intro line.\n\n## Revenue\n\n- Use EUR.\n\n## Customers\n- Exclude tests.'

  it('gives back the text exactly when joined', () => {
    expect(splitRuleBlocks(rules).map((piece) => piece.text).join('')).toBe(rules)
  })

  it('starts a block at each heading', () => {
    expect(splitRuleBlocks(rules).map((piece) => piece.heading)).toEqual([null, 'Revenue', 'Customers'])
  })

  it('ignores heading-like lines inside code fences', () => {
    const text = '## SQL\n```sql\n# not a heading\n```\n'
    expect(splitRuleBlocks(text).map((piece) => piece.heading)).toEqual(['SQL'])
  })

  it('reads headings with closing hashes and CRLF line ends', () => {
    expect(splitRuleBlocks('## Money ##\r\nUse EUR.\r\n# Time\r\nUTC').map((piece) => piece.heading)).toEqual(['Money', 'Time'])
  })

  it('does not take #hashtags for headings', () => {
    expect(splitRuleBlocks('#revenue is tagged\n').map((piece) => piece.heading)).toEqual([null])
  })

  it('has no pieces for empty text', () => {
    expect(splitRuleBlocks('')).toEqual([])
  })
})

describe('slugOf and shortTitle', () => {
  it('turns a heading into an id part', () => {
    expect(slugOf('Revenue & Currency (2026)')).toBe('revenue-currency-2026')
  })

  it('falls back for a heading without letters or digits', () => {
    expect(slugOf('***')).toBe('block')
  })

  it('cuts a long title on one line with an ellipsis', () => {
    expect(shortTitle('a\nb ' + 'x'.repeat(80), 10)).toBe('a b xxxxx…')
  })
})
