import { describe, expect, it } from 'vitest'
import { roundSignature, ToolCallAccumulator, toolCallsFromContent } from './tool-calls'

const known = new Set(['execute_sql', 'read'])
const ids = (position: number): string => `c${position}`

describe('ToolCallAccumulator', () => {
  it('assembles chunks by index', () => {
    const calls = new ToolCallAccumulator()
    calls.add({ index: 0, id: 'a', name: 'read', args: '' })
    calls.add({ index: 1, id: 'b', name: 'execute_sql', args: '{"sql_query"' })
    calls.add({ index: 0, args: '{"file_path":"x"}' })
    calls.add({ index: 1, args: ':"SELECT 1"}' })
    expect(calls.finish(ids)).toEqual([
      { callId: 'a', name: 'read', args: { file_path: 'x' }, rawArgs: '{"file_path":"x"}' },
      { callId: 'b', name: 'execute_sql', args: { sql_query: 'SELECT 1' }, rawArgs: '{"sql_query":"SELECT 1"}' }
    ])
  })

  it('assembles chunks without index or id, one call after the other', () => {
    const calls = new ToolCallAccumulator()
    calls.add({ name: 'read', args: '{"file_path":' })
    calls.add({ args: '"x"}' })
    calls.add({ name: 'read', args: '{"file_path":"y"}' })
    expect(calls.finish(ids).map((call) => call.args)).toEqual([{ file_path: 'x' }, { file_path: 'y' }])
  })
})

describe('toolCallsFromContent', () => {
  it('reads fenced, tagged and bare JSON calls of known tools', () => {
    expect(toolCallsFromContent('```json\n{"name":"read","arguments":{"file_path":"a"}}\n```', known, ids)?.[0].args).toEqual({ file_path: 'a' })
    expect(toolCallsFromContent('<tool_call>{"name":"read","arguments":"{\\"file_path\\":\\"b\\"}"}</tool_call>', known, ids)?.[0].args).toEqual({ file_path: 'b' })
    expect(toolCallsFromContent('[{"function":{"name":"execute_sql","arguments":{"sql_query":"SELECT 1"}}}]', known, ids)?.[0].name).toBe('execute_sql')
  })

  it('leaves other JSON and unknown tools alone', () => {
    expect(toolCallsFromContent('{"total": 3}', known, ids)).toBeNull()
    expect(toolCallsFromContent('{"name":"rm","arguments":{}}', known, ids)).toBeNull()
    expect(toolCallsFromContent('Here: {"name":"read"}', known, ids)).toBeNull()
  })
})

describe('roundSignature', () => {
  it('ignores call order and key order', () => {
    const a = roundSignature([
      { callId: '1', name: 'read', args: { file_path: 'x', b: 1 }, rawArgs: '' },
      { callId: '2', name: 'list', args: {}, rawArgs: '' }
    ])
    const b = roundSignature([
      { callId: '3', name: 'list', args: {}, rawArgs: '' },
      { callId: '4', name: 'read', args: { b: 1, file_path: 'x' }, rawArgs: '' }
    ])
    expect(a).toBe(b)
  })
})
