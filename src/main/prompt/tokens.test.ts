import { describe, expect, it } from 'vitest'
import { countTokens } from './tokens'

describe('countTokens', () => {
  it('counts nothing for empty text', () => {
    expect(countTokens('')).toBe(0)
  })

  it('counts words of English with a BPE vocabulary (about one token per common word)', () => {
    expect(countTokens('Always show revenue in EUR.')).toBeGreaterThanOrEqual(5)
    expect(countTokens('Always show revenue in EUR.')).toBeLessThanOrEqual(8)
  })

  it('gives the same count for the same long text (served from the cache by content hash)', () => {
    const text = 'SELECT SUM(amount) FROM orders; '.repeat(5000)
    expect(countTokens(text)).toBe(countTokens(text.slice(0)))
  })
})
