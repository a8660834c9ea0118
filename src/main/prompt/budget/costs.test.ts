import { describe, expect, it } from 'vitest'
import { ContextWindowTooSmallError, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS, messageTokens } from './costs'

const count = (text: string): number => text.split(/\s+/).filter(Boolean).length

describe('messageTokens', () => {
  it('adds the chat-template overhead to the text', () => {
    expect(messageTokens({ role: 'user', content: 'one two three' }, count)).toBe(3 + MESSAGE_OVERHEAD_TOKENS)
  })

  it('counts tool calls by name and arguments', () => {
    const message = { role: 'assistant' as const, content: '', toolCalls: [{ id: 't', name: 'execute_sql', args: { sql_query: 'SELECT 1' } }] }
    // '{"sql_query":"SELECT 1"}' is two words in the fake count.
    expect(messageTokens(message, count)).toBe(MESSAGE_OVERHEAD_TOKENS + MESSAGE_OVERHEAD_TOKENS + 1 + 2)
  })

  it('gives each image a fixed estimate', () => {
    const message = { role: 'user' as const, content: [{ type: 'image_url' as const, image_url: { url: 'data:x' } }] }
    expect(messageTokens(message, count)).toBe(MESSAGE_OVERHEAD_TOKENS + IMAGE_TOKENS)
  })
})

describe('ContextWindowTooSmallError', () => {
  it('adds up what is needed', () => {
    const error = new ContextWindowTooSmallError(512, { system: 600, tools: 100, history: 0, user: 20, output: 256, safetyMargin: 26 })
    expect([error.needed, error.name]).toEqual([1002, 'ContextWindowTooSmallError'])
  })
})
