import { describe, expect, it } from 'vitest'
import type { RequestMessage } from '../../../shared/prompt'
import { archivedHistoryRef, splitIntoTurns } from './history'

const user = (content: string): RequestMessage => ({ role: 'user', content })
const assistant = (content: string): RequestMessage => ({ role: 'assistant', content })
const target = { source: 'chat:7', now: '2026-11-29T00:00:00.000Z' }

describe('splitIntoTurns', () => {
  it('starts a turn at every user message', () => {
    expect(splitIntoTurns([user('a'), assistant('b'), user('c'), assistant('d'), { role: 'tool', content: 'e' }])).toEqual([
      [0, 2],
      [2, 5]
    ])
  })

  it('keeps messages before the first user message as a turn of their own', () => {
    expect(splitIntoTurns([assistant('hello'), user('a')])).toEqual([
      [0, 1],
      [1, 2]
    ])
  })

  it('has no turns for an empty history', () => {
    expect(splitIntoTurns([])).toEqual([])
  })
})

describe('archivedHistoryRef', () => {
  it('quotes the one question of a single archived turn', () => {
    expect(archivedHistoryRef([user('Revenue?'), assistant('12')], 1, 20, target).summary).toBe(
      'The 2 oldest messages of this chat (1 turn), moved out to fit the context window. Question: "Revenue?".'
    )
  })

  it('clips long questions to 80 characters on one line', () => {
    const long = 'word\n'.repeat(30)
    expect(archivedHistoryRef([user(long)], 1, 20, target).summary).toContain(`Question: "${'word '.repeat(16).slice(0, 80)}…".`)
  })

  it('uses the given fileId when there is one', () => {
    expect(archivedHistoryRef([user('a')], 1, 5, { ...target, fileId: 'archive-1' }).fileId).toBe('archive-1')
  })

  it('reads the text parts of a message with images', () => {
    const withImage: RequestMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'data:x' } }
      ]
    }
    expect(archivedHistoryRef([withImage], 1, 5, target).summary).toContain('Question: "What is this?".')
  })
})
