import { createHash, hash } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { countTokens as countBpeTokens } from 'gpt-tokenizer'
import { countTokens, keepTokenCountsIn, type TokenCountMemory } from './tokens'

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>()
  return { ...actual, hash: vi.fn(actual.hash) }
})

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

  it('does not hash a long text again when it is counted again (a system prompt, every pass and preview)', () => {
    const text = `A long text no other test counts: ${Math.random()} `.repeat(100)
    vi.mocked(hash).mockClear()
    const tokens = countTokens(text)
    expect(countTokens(text)).toBe(tokens)
    expect(countTokens(`${text}`)).toBe(tokens)
    expect(hash).toHaveBeenCalledTimes(1)
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

describe('countTokens with a memory of earlier counts', () => {
  function memoryOf(known: Map<string, number>): TokenCountMemory & { asked: string[] } {
    const asked: string[] = []
    return {
      asked,
      get: (key) => (asked.push(key), known.get(key)),
      remember: (key, tokens) => void known.set(key, tokens)
    }
  }

  it('tells the memory each new count, under a key naming the vocabulary and the content', () => {
    const known = new Map<string, number>()
    const forget = keepTokenCountsIn(memoryOf(known))
    try {
      const text = `A text no other test counts: ${Math.random()}`
      const tokens = countTokens(text)
      expect([...known.values()]).toEqual([tokens])
      expect([...known.keys()][0]).toMatch(/^o200k:[A-Za-z0-9+/]{27}=$/)
      expect(tokens).toBe(countBpeTokens(text))
    } finally {
      forget()
    }
  })

  it('uses a remembered count instead of counting', () => {
    const text = `Counted by an earlier process: ${Math.random()}`
    // A count no tokenizer would give, so only the memory can be its source.
    const known = new Map([[`o200k:${createHash('sha1').update(text).digest('base64')}`, 4242]])
    const forget = keepTokenCountsIn(memoryOf(known))
    try {
      expect(countTokens(text)).toBe(4242)
    } finally {
      forget()
    }
  })

  it('stops asking a memory once it is forgotten', () => {
    const memory = memoryOf(new Map())
    keepTokenCountsIn(memory)()
    countTokens(`Nobody remembers this: ${Math.random()}`)
    expect(memory.asked).toEqual([])
  })
})
