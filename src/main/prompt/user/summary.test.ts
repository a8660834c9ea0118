import { describe, expect, it } from 'vitest'
import { extractSummary, lastKeywordIndex, truncateFromEnd, TRUNCATION_PREFIX } from './summary'

// A deterministic fake tokenizer: one token per whitespace-separated word (and per CJK character), so the
// limits in these tests are easy to read.
function fakeCount(text: string): number {
  return (text.match(/[\u4e00-\u9fff]|[^\s\u4e00-\u9fff]+/gu) ?? []).length
}
const words = (n: number, word = 'word'): string => Array.from({ length: n }, () => word).join(' ')

describe('lastKeywordIndex', () => {
  it('finds the last of several keywords', () => {
    expect(lastKeywordIndex('Done here. Later, finally it worked.')).toBe(18)
  })

  it('matches English keywords as whole words only ("abandoned" is not "done")', () => {
    expect(lastKeywordIndex('The project was abandoned and undone.')).toBe(-1)
  })

  it('matches case-insensitively and across line breaks in multi-word keywords', () => {
    expect(lastKeywordIndex('x\nIn\nSummary, y')).toBe(2)
  })

  it("matches I've with a typographic apostrophe", () => {
    expect(lastKeywordIndex('I’ve fixed the query.')).toBe(0)
  })

  it('matches Chinese keywords inside a sentence', () => {
    expect(lastKeywordIndex('我们综上所述得出')).toBe(2)
  })
})

describe('extractSummary', () => {
  it('returns an empty string for empty content', () => {
    expect(extractSummary('  \n ', 100, fakeCount)).toBe('')
  })

  it('takes the paragraph holding the last keyword', () => {
    const content = `${words(300)}\n\nSome notes.\n\nIn summary, revenue grew 4%.\nMostly in March.`
    expect(extractSummary(content, 100, fakeCount)).toBe('In summary, revenue grew 4%.\nMostly in March.')
  })

  it('starts at the beginning when the keyword is in the first paragraph', () => {
    expect(extractSummary('Finally it worked.\nYes.', 100, fakeCount)).toBe('Finally it worked.\nYes.')
  })

  it('keeps short content without a keyword as it is', () => {
    expect(extractSummary('  Revenue was 12 EUR.  ', 100, fakeCount)).toBe('Revenue was 12 EUR.')
  })

  it('cuts long content without a keyword from the end', () => {
    const content = words(400)
    expect(extractSummary(content, 10, fakeCount)).toBe(TRUNCATION_PREFIX + content.slice(-35).trim())
  })

  it('cuts from the end when the keyword paragraph is over the limit', () => {
    const content = `Intro.\n\nDone: ${words(50)}`
    expect(extractSummary(content, 10, fakeCount)).toBe(TRUNCATION_PREFIX + content.slice(-35).trim())
  })

  it('summarises a Chinese-only result from its conclusion paragraph', () => {
    const content = `${'数据清洗步骤很多。'.repeat(40)}\n\n综上，三月的销售额最高。`
    expect(extractSummary(content, 100, fakeCount)).toBe('综上，三月的销售额最高。')
  })
})

describe('truncateFromEnd', () => {
  it('keeps limit × 3.5 characters behind the prefix', () => {
    expect(truncateFromEnd('a'.repeat(100), 10)).toBe(TRUNCATION_PREFIX + 'a'.repeat(35))
  })

  it('starts after the first sentence end when it lies in the first 30%', () => {
    // The tail is the last 35 characters: "ab. " then 31 more; the sentence ends at index 2 (< 10.5).
    const tail = 'ab. ' + 'c'.repeat(31)
    expect(truncateFromEnd('x'.repeat(50) + tail, 10)).toBe(TRUNCATION_PREFIX + 'c'.repeat(31))
  })

  it('keeps the whole tail when the first sentence end is past 30%', () => {
    const tail = 'c'.repeat(20) + '. ' + 'd'.repeat(13)
    expect(truncateFromEnd('x'.repeat(50) + tail, 10)).toBe(TRUNCATION_PREFIX + tail)
  })

  it('treats a Chinese full stop as a sentence end', () => {
    const tail = '前文。' + '结'.repeat(32)
    expect(truncateFromEnd('x'.repeat(50) + tail, 10)).toBe(TRUNCATION_PREFIX + '结'.repeat(32))
  })

  it('does not start with half of a surrogate pair', () => {
    expect(truncateFromEnd('x'.repeat(50) + '😀' + 'y'.repeat(34), 10)).toBe(TRUNCATION_PREFIX + 'y'.repeat(34))
  })
})
