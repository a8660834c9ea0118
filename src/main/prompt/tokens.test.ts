import { describe, expect, it } from 'vitest'
import { countTokens as countBpeTokens } from 'gpt-tokenizer'
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

describe('countTokens on one huge "word" (#11 B10)', () => {
  // Raw BPE is quadratic in the length of one pre-token: 80k identical letters took 2.5 s, 1 MB ~6 minutes.
  const blobs: Record<string, string> = {
    letters: 'a'.repeat(1_000_000),
    spaces: ' '.repeat(1_000_000),
    base64: Buffer.from(Array.from({ length: 750_000 }, (_, i) => (i * 7919 + (i >> 8)) % 256)).toString('base64'),
    json: JSON.stringify(Array.from({ length: 30_000 }, (_, i) => ({ id: i, name: `n${i}`, v: i * 1.5 })))
  }
  for (const [name, text] of Object.entries(blobs)) {
    it(`counts 1 MB of ${name} in well under a second, within a few percent of the exact count where that is computable`, () => {
      const started = performance.now()
      const tokens = countTokens(text)
      expect(performance.now() - started).toBeLessThan(1_000)
      expect(tokens).toBeGreaterThan(text.length / 200)
    })
  }

  it('stays within 3% of the exact BPE count for a base64 blob and minified JSON', () => {
    expect(Math.abs(countTokens(blobs.base64) / countBpeTokens(blobs.base64) - 1)).toBeLessThan(0.03)
    expect(Math.abs(countTokens(blobs.json) / countBpeTokens(blobs.json) - 1)).toBeLessThan(0.03)
  })

  it('is exact for ordinary text (no run longer than a few hundred characters)', () => {
    const prose = 'Revenue is the sum of payments.amount; cancelled orders have no payment. '.repeat(200)
    expect(countTokens(prose)).toBe(countBpeTokens(prose))
  })
})
