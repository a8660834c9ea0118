import { describe, expect, it } from 'vitest'
import type { Budget, PromptSection } from './prompt'
import { estimateNote, sectionTokens, topLevel } from './section-tokens'

const section = (id: string, start: number, end: number, tokens: number): PromptSection => ({ id, title: id, component: id, sources: [], start, end, tokens })
const budget = (system: number, tokenScale?: number): Budget => ({
  contextWindow: 8192,
  reservedOutput: 1024,
  used: system + 1024,
  parts: [
    { name: 'system', tokens: system },
    { name: 'output', tokens: 1024 }
  ],
  trimmed: [],
  ...(tokenScale === undefined ? {} : { tokenScale })
})

describe('sectionTokens', () => {
  const memory = section('memory', 100, 200, 30)
  const item = section('memory-1', 120, 140, 5)
  const sections = [section('instructions', 0, 90, 20), memory, item]

  it('counts nested sections once: only sections inside no other are top level', () => {
    expect(topLevel(sections)).toEqual([sections[0], memory])
    expect([...sectionTokens({ sections, budget: null }).outer]).toEqual(['instructions', 'memory'])
  })

  it('shows each section at the server scale, and the top-level rows and what lies between add up to the whole', () => {
    const tokens = sectionTokens({ sections, budget: budget(70, 1.25) })
    expect(sections.map(tokens.shown)).toEqual([25, 38, 7])
    expect(tokens.total).toBe(70)
    expect(tokens.between).toBe(70 - 25 - 38)
  })

  it('without a budget the whole is the top-level rows, nothing between', () => {
    const tokens = sectionTokens({ sections, budget: null })
    expect(tokens.total).toBe(50)
    expect(tokens.between).toBe(0)
  })

  it('says when the estimate was scaled', () => {
    expect(estimateNote(undefined)).toBe('estimated')
    expect(estimateNote(1)).toBe('estimated')
    expect(estimateNote(1.2673)).toBe("estimated, scaled ×1.27 to the server's tokenizer")
  })
})
