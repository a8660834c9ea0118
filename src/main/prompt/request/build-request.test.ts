import { describe, expect, it } from 'vitest'
import type { RequestMessage } from '../../../shared/prompt'
import { buildRequestMessages, EmptyUserPromptError, type BuildRequestInput } from './build-request'

const history: RequestMessage[] = [
  { role: 'user', content: 'Revenue in March?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'execute_sql', args: { sql_query: 'SELECT 1' } }] },
  { role: 'tool', content: '1', toolCallId: 't1' },
  { role: 'assistant', content: '12 EUR.' }
]
const base: BuildRequestInput = { system: 'You are Glassbox.', history, user: 'And April?', model: { supportsPromptCache: false } }

describe('buildRequestMessages', () => {
  it('orders system, history, in-run messages, then the user prompt', () => {
    const inRun: RequestMessage[] = [{ role: 'assistant', content: 'Checking.' }]
    expect(buildRequestMessages({ ...base, messages: inRun })).toEqual([
      { role: 'system', content: 'You are Glassbox.' },
      ...history,
      { role: 'assistant', content: 'Checking.' },
      { role: 'user', content: 'And April?' }
    ])
  })

  it('refuses an empty user prompt with a clear error', () => {
    expect(() => buildRequestMessages({ ...base, user: ' \n' })).toThrow(
      new EmptyUserPromptError()
    )
  })

  it('says in the error that nothing was sent', () => {
    expect(() => buildRequestMessages({ ...base, user: '' })).toThrow(
      'The user prompt is empty: type a question before sending (nothing was sent to the model).'
    )
  })

  it('leaves out an empty system prompt', () => {
    expect(buildRequestMessages({ ...base, system: '', history: [] })).toEqual([{ role: 'user', content: 'And April?' }])
  })

  it('sends images as text and image_url parts of the final message', () => {
    const messages = buildRequestMessages({ ...base, images: ['data:image/png;base64,AAAA', 'file:///tmp/b.png'] })
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'And April?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        { type: 'image_url', image_url: { url: 'file:///tmp/b.png' } }
      ]
    })
  })

  it('adds no cache marks when the model does not support prompt caching', () => {
    const withStaleMark: RequestMessage[] = [{ role: 'user', content: 'old', cache: true }]
    const messages = buildRequestMessages({ ...base, history: withStaleMark })
    expect(messages.some((message) => 'cache' in message)).toBe(false)
  })

  it('marks the system prompt and the 3 most recent cacheable messages, skipping tool and empty ones', () => {
    const messages = buildRequestMessages({ ...base, model: { supportsPromptCache: true } })
    expect(messages.map((message) => message.cache ?? false)).toEqual([true, true, false, false, true, false])
  })

  it('marks at most 3 earlier messages', () => {
    const long: RequestMessage[] = Array.from({ length: 6 }, (_, i) => ({ role: 'user', content: `m${i}` }))
    const messages = buildRequestMessages({ ...base, history: long, model: { supportsPromptCache: true } })
    expect(messages.map((message) => message.cache ?? false)).toEqual([true, false, false, false, true, true, true, false])
  })

  it('does not count a message of blank text parts as cacheable', () => {
    const blank: RequestMessage[] = [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'text', text: ' ' }] }
    ]
    const messages = buildRequestMessages({ ...base, history: blank, model: { supportsPromptCache: true } })
    expect(messages.map((message) => message.cache ?? false)).toEqual([true, true, false, false])
  })

  it('never changes its inputs', () => {
    const input: BuildRequestInput = { ...base, images: ['data:x'], model: { supportsPromptCache: true } }
    const before = structuredClone(input)
    const messages = buildRequestMessages(input)
    messages[1].toolCalls = []
    expect(input).toEqual(before)
  })

  it('returns copies that do not share tool calls with the input', () => {
    const messages = buildRequestMessages(base)
    expect(messages[2].toolCalls).not.toBe(history[1].toolCalls)
  })
})
