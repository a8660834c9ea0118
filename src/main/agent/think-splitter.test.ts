import { describe, expect, it } from 'vitest'
import { ThinkSplitter, type ContentPiece } from './think-splitter'

function split(chunks: string[]): ContentPiece[] {
  const splitter = new ThinkSplitter()
  const pieces = [...chunks.flatMap((chunk) => splitter.push(chunk)), ...splitter.flush()]
  // Merge neighbours of the same kind so the test reads as the user would see it.
  return pieces.reduce<ContentPiece[]>((merged, piece) => {
    const last = merged.at(-1)
    if (last?.kind === piece.kind) last.text += piece.text
    else merged.push({ ...piece })
    return merged
  }, [])
}

describe('ThinkSplitter', () => {
  it('separates a think block from the answer', () => {
    expect(split(['<think>plan</think>Answer'])).toEqual([
      { kind: 'reasoning', text: 'plan' },
      { kind: 'text', text: 'Answer' }
    ])
  })

  it('handles tags cut across chunks', () => {
    expect(split(['<th', 'ink>pl', 'an</thi', 'nk>An', 'swer'])).toEqual([
      { kind: 'reasoning', text: 'plan' },
      { kind: 'text', text: 'Answer' }
    ])
  })

  it('gives back a lone tag prefix at the end as text', () => {
    expect(split(['a < b and <thi'])).toEqual([{ kind: 'text', text: 'a < b and <thi' }])
  })
})
