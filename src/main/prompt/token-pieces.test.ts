import { describe, expect, it } from 'vitest'
import { countTokensPiecewise, piecesOf, PIECEWISE_FROM } from './token-pieces'
import { countTokens } from './tokens'

const rules = Array.from({ length: 400 }, (_, rule) => `${rule % 20 === 0 ? `## Topic ${rule}\n\n` : ''}Rule ${rule}: report revenue of segment ${rule % 37} in euros.\nCount orders once per day.\n\n`).join('')

describe('countTokensPiecewise', () => {
  it('cuts a text into pieces that join back to it, none over 2 KB', () => {
    const text = rules + 'x'.repeat(5000) + '\n' + rules
    const pieces = piecesOf(text)
    expect(pieces.join('')).toBe(text)
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(2048)
  })

  it('counts short texts whole', () => {
    const text = rules.slice(0, PIECEWISE_FROM - 1)
    expect(countTokensPiecewise(text)).toBe(countTokens(text))
  })

  it('stays within 0.5% of the whole count on a long rules file', () => {
    const whole = countTokens(rules)
    expect(Math.abs(countTokensPiecewise(rules) - whole)).toBeLessThanOrEqual(Math.ceil(whole * 0.005))
  })

  it('gives the same count for the same text, whatever was counted before', () => {
    const edited = rules.replace('Rule 200:', 'Rule 200 (edited):')
    const first = countTokensPiecewise(edited)
    countTokensPiecewise(rules)
    expect(countTokensPiecewise(edited)).toBe(first)
  })
})
