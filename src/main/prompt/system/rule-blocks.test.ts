import { describe, expect, it } from 'vitest'
import { HEADING_OR_FENCE, shortTitle, slugOf, splitRuleBlocks, type RulePiece } from './rule-blocks'

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

  it('keeps letters and digits of any script, and reads every ASCII character as the Unicode classes do', () => {
    expect(slugOf('Umsatz & Währung – 税率 ٣')).toBe('umsatz-währung-税率-٣')
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join('')
    for (let at = 0; at < ascii.length; at++) {
      const heading = `Rule ${ascii[at]}x${ascii.slice(at, at + 7)}9`
      const byClasses = heading.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '')
      expect(slugOf(heading)).toBe(byClasses)
    }
  })

  it('cuts a long title on one line with an ellipsis', () => {
    expect(shortTitle('a\nb ' + 'x'.repeat(80), 10)).toBe('a b xxxxx…')
  })
})

describe('splitRuleBlocks on arbitrary text', () => {
  /** The plain one-pass split the indexOf search stands in for. */
  function splitByRegex(text: string): { index: number; heading: string | undefined }[] {
    return [...text.matchAll(HEADING_OR_FENCE)].map((match) => ({ index: match.index, heading: match[1] }))
  }

  it('finds the same blocks as one regex pass over the whole text', () => {
    const parts = ['# A', '## B ##', '#tag', ' # not', '```', '  ```sql', '~~~', 'x ```', '\t~~~', 'text', '', '###### F', '####### G', '#\tT', '## ']
    const ends = ['\n', '\n', '\r\n', '\r', '\u2028', '\u2029', '', ' ']
    let seed = 7
    // High bits only: the low bits of this generator repeat every few draws.
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 12
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: next() % 30 }, () => parts[next() % parts.length] + ends[next() % ends.length]).join('')
      const expected: RulePiece[] = []
      let start = 0
      let heading: string | null = null
      let inFence = false
      for (const match of splitByRegex(text)) {
        if (match.heading === undefined) inFence = !inFence
        else if (!inFence) {
          if (match.index > start) expected.push({ text: text.slice(start, match.index), heading })
          start = match.index
          heading = match.heading
        }
      }
      if (text.length > start) expected.push({ text: text.slice(start), heading })
      expect(splitRuleBlocks(text)).toEqual(expected)
    }
  })
})
