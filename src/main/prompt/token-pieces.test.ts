import { describe, expect, it } from 'vitest'
import { countTokensPiecewise, piecesOf, PIECEWISE_FROM } from './token-pieces'
import { createHash } from 'node:crypto'
import { countTokens, keepTokenCountsIn } from './tokens'

const rules = Array.from({ length: 400 }, (_, rule) => `${rule % 20 === 0 ? `## Topic ${rule}\n\n` : ''}Rule ${rule}: report revenue of segment ${rule % 37} in euros.\nCount orders once per day.\n\n`).join('')

describe('countTokensPiecewise', () => {
  it('cuts a text into pieces that join back to it, none over 2 KB', () => {
    const text = rules + 'x'.repeat(5000) + '\n' + rules
    const pieces = piecesOf(text)
    expect(pieces.join('')).toBe(text)
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(2048)
  })

  it('joins short paragraphs into pieces of at least 1 KB, one look-up each', () => {
    const pieces = piecesOf(rules)
    expect(pieces.slice(0, -1).every((piece) => piece.length >= 1024)).toBe(true)
    expect(pieces.length).toBeLessThan(rules.length / 1024 + 1)
  })

  it('counts short texts whole', () => {
    const text = rules.slice(0, PIECEWISE_FROM - 1)
    expect(countTokensPiecewise(text)).toBe(countTokens(text))
  })

  it('stays within 0.5% of the whole count on a long rules file', () => {
    const whole = countTokens(rules)
    expect(Math.abs(countTokensPiecewise(rules) - whole)).toBeLessThanOrEqual(Math.ceil(whole * 0.005))
  })

  it('remembers the sum under the whole text, so an unchanged long text is one look-up in a later process', () => {
    const text = `${rules}Rule of this test only: ${Math.random()}\n`
    const key = `o200k/pieces:${createHash('sha1').update(text).digest('base64')}`
    const remembered = new Map<string, number>()
    const asked: string[] = []
    const forget = keepTokenCountsIn({ get: (wanted) => (asked.push(wanted), remembered.get(wanted)), remember: (wanted, tokens) => void remembered.set(wanted, tokens) })
    try {
      const tokens = countTokensPiecewise(text)
      expect(remembered.get(key)).toBe(tokens)
      expect(asked[0]).toBe(key)
      // A count no tokenizer would give, under the key a later process asks first (this one's own cache of
      // the text is keyed the same way, so a changed text is what a new process sees).
      const later = `${text}One more rule.\n`
      remembered.set(`o200k/pieces:${createHash('sha1').update(later).digest('base64')}`, 4242)
      asked.length = 0
      expect(countTokensPiecewise(later)).toBe(4242)
      expect(asked).toHaveLength(1)
    } finally {
      forget()
    }
  })

  it('gives the same count for the same text, whatever was counted before', () => {
    const edited = rules.replace('Rule 200:', 'Rule 200 (edited):')
    const first = countTokensPiecewise(edited)
    countTokensPiecewise(rules)
    expect(countTokensPiecewise(edited)).toBe(first)
  })
})

/** The cutting rule written plainly: rescans the rest of the text for every paragraph (quadratic, kept as the reference). */
function referencePiecesOf(text: string): string[] {
  const paragraphEnd = (from: number): number => {
    const blank = text.indexOf('\n\n', from)
    if (blank === -1) return text.length
    let end = blank + 2
    while (text.charCodeAt(end) === 10) end++
    return end
  }
  const pieces: string[] = []
  let start = 0
  while (start < text.length) {
    let end = paragraphEnd(start)
    if (end - start > 2048) {
      const newline = text.lastIndexOf('\n', start + 2047)
      end = newline >= start ? newline + 1 : start + 2048
    }
    // Short paragraphs are joined up to 1 KB, never past 2 KB.
    while (end - start < 1024 && end < text.length && paragraphEnd(end) - start <= 2048) end = paragraphEnd(end)
    pieces.push(text.slice(start, end))
    start = end
  }
  return pieces
}

/** A small deterministic generator (mulberry32), so a failing input can be reproduced from its seed. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('piecesOf', () => {
  it('cuts exactly as the reference rule on many random texts', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const random = randomSource(seed)
      // Mostly letters with newlines at varying density, so runs of blank lines, long lines and
      // newline-free stretches over 2 KB all occur.
      const newlineRate = [0.0002, 0.002, 0.02, 0.3][seed % 4]
      const length = Math.floor(random() * 12_000)
      let text = ''
      for (let i = 0; i < length; i++) text += random() < newlineRate ? '\n' : random() < 0.15 ? ' ' : 'a'
      expect(piecesOf(text), `seed ${seed}`).toEqual(referencePiecesOf(text))
    }
  })

  // Bounded by CPU time, which other processes on a busy machine do not inflate: the linear cut needs about ten
  // milliseconds here, the quadratic one over half a second (and grows with the square of the length).
  it('cuts 5 MB without a blank line, with or without line breaks, in linear time', { timeout: 60_000 }, () => {
    const lines = ('SELECT region, sum(net_revenue) FROM orders GROUP BY region -- no blank line here\n').repeat(62_000)
    const oneLine = 'x'.repeat(5_000_000)
    for (const text of [lines, oneLine]) {
      const before = process.cpuUsage()
      const pieces = piecesOf(text)
      const cpu = process.cpuUsage(before)
      expect((cpu.user + cpu.system) / 1000, 'CPU milliseconds').toBeLessThan(200)
      expect(pieces.join('')).toBe(text)
      expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(2048)
    }
  })
})
