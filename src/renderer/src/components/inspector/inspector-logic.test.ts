import { expect, it } from 'vitest'
import type { PromptPreview } from '../../../../shared/prompt'
import { sliderRange } from './MemoryTab'
import { parseRequestBody } from './request-body'

it('reads a captured body back into messages, tool schemas and parameters', () => {
  const body = JSON.stringify({
    model: 'm',
    temperature: 0,
    stream: true,
    messages: [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Q' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'execute_sql', arguments: '{"sql_query":"SELECT 1"}' } }] },
      { role: 'tool', content: 'rows', tool_call_id: 'c1' }
    ],
    tools: [{ type: 'function', function: { name: 'execute_sql', description: 'Run SQL', parameters: { type: 'object' } } }]
  })
  const parsed = parseRequestBody(body)
  expect(parsed?.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool'])
  expect(parsed?.messages[2].toolCalls).toEqual([{ id: 'c1', name: 'execute_sql', args: { sql_query: 'SELECT 1' } }])
  expect(parsed?.messages[3].toolCallId).toBe('c1')
  expect(parsed?.tools).toEqual([{ name: 'execute_sql', description: 'Run SQL', parameters: { type: 'object' } }])
  expect(parsed?.params).toEqual([['model', 'm'], ['temperature', 0], ['stream', true]])
  expect(parseRequestBody('not json')).toBeNull()
})

it('scales the memory slider to what the memories need', () => {
  const item = { id: 1, category: 'global_rule' as const, content: 'x', tokens: 40, chatId: null, createdAt: 't' }
  const preview: PromptPreview = { system: '', user: '', messages: [], sections: [], memory: { included: [item], dropped: [{ ...item, id: 2, reason: 'r' }] }, diagnostics: [], overrideMode: 'default', budget: null }
  expect(sliderRange(preview, 60)).toEqual({ max: 100, step: 1 })
  expect(sliderRange(preview, 1000).max).toBe(1000)
})
