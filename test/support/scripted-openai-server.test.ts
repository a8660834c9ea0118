import { afterEach, describe, expect, it } from 'vitest'
import { isAgentRequest, latestTurn, startScriptedServer, type RecordedRequest, type ScriptedServer } from './scripted-openai-server'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function streamChat(url: string, body: Record<string, unknown> = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'scripted-model', messages: [{ role: 'user', content: 'hi' }], stream: true, ...body })
  })
  return { status: response.status, text: await response.text() }
}

function dataLines(text: string): string[] {
  return text.split('\n\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6))
}

describe('scripted OpenAI-compatible server', () => {
  it('streams text in several chunks, then usage and [DONE], and records the request', async () => {
    server = await startScriptedServer({ script: [{ text: 'Hello there, analyst.', chunkSize: 5 }] })
    const { status, text } = await streamChat(server.url)
    expect(status).toBe(200)
    const lines = dataLines(text)
    expect(lines.at(-1)).toBe('[DONE]')
    const chunks = lines.slice(0, -1).map((line) => JSON.parse(line))
    const content = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')
    expect(content).toBe('Hello there, analyst.')
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta?.content).length).toBeGreaterThan(2)
    expect(chunks.at(-1).usage).toEqual({ prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 })
    expect(server.chatRequests()[0].body).toMatchObject({ model: 'scripted-model', stream: true })
  })

  it('streams tool-call arguments in pieces, with or without index', async () => {
    server = await startScriptedServer({
      script: [
        { toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT 1' } }], chunkSize: 4 },
        { toolCalls: [{ name: 'read', args: { file_path: 'RULES.md' } }], toolCallsWithoutIndex: true }
      ]
    })
    const first = dataLines((await streamChat(server.url)).text).slice(0, -1).map((line) => JSON.parse(line))
    const pieces = first.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? [])
    expect(pieces.length).toBeGreaterThan(2)
    expect(pieces.map((piece: { function: { arguments: string } }) => piece.function.arguments).join('')).toBe('{"sql_query":"SELECT 1"}')
    expect(pieces.every((piece: { index?: number }) => piece.index === 0)).toBe(true)
    const second = dataLines((await streamChat(server.url)).text).slice(0, -1).map((line) => JSON.parse(line))
    const noIndex = second.flatMap((chunk) => chunk.choices[0]?.delta?.tool_calls ?? [])
    expect(noIndex.some((piece: Record<string, unknown>) => 'index' in piece)).toBe(false)
  })

  it('answers non-streaming requests with a chat.completion', async () => {
    server = await startScriptedServer({ script: [{ text: '{"user_instructions":null,"user_profile":null}' }] })
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'scripted-model', messages: [], response_format: { type: 'json_object' } })
    })
    const json = JSON.parse(await response.text())
    expect(json.object).toBe('chat.completion')
    expect(json.choices[0].message.content).toBe('{"user_instructions":null,"user_profile":null}')
  })

  it('reproduces the faults: 500, context length, tools unsupported, malformed chunk, disconnect', async () => {
    server = await startScriptedServer({
      script: [
        { fault: 'http-500' },
        { fault: 'context-length' },
        { fault: 'tools-unsupported' },
        { fault: 'malformed-chunk', text: 'partial' },
        { fault: 'disconnect', text: 'partial' }
      ]
    })
    expect((await streamChat(server.url)).status).toBe(500)
    const tooLong = await streamChat(server.url)
    expect(tooLong.status).toBe(400)
    expect(tooLong.text).toContain('context length')
    const noTools = await streamChat(server.url, { tools: [{ type: 'function', function: { name: 'x', parameters: {} } }] })
    expect(noTools.text).toContain('does not support tools')
    expect((await streamChat(server.url)).text).toContain('"oops"\n\n')
    await expect(streamChat(server.url)).rejects.toThrow()
  })

  it('sees the client go away during a hanging response, and close() ends it', async () => {
    server = await startScriptedServer({ script: [{ fault: 'hang' }] })
    const controller = new AbortController()
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ stream: true }),
      signal: controller.signal
    })
    expect(response.status).toBe(200)
    const aborted = server.waitForClientAbort(2_000)
    controller.abort()
    await aborted
    expect(server.clientAborts()).toBe(1)
  })

  it('serves the model list and the discovery endpoints it is given', async () => {
    server = await startScriptedServer({
      models: [{ id: 'qwen3:8b', max_model_len: 32768 }],
      llamaProps: { n_ctx: 8192 }
    })
    const models = JSON.parse(await (await fetch(`${server.url}/models`)).text())
    expect(models.data[0]).toMatchObject({ id: 'qwen3:8b', max_model_len: 32768 })
    expect(await (await fetch(`${server.origin}/props`)).json()).toEqual({ n_ctx: 8192 })
    expect((await fetch(`${server.origin}/api/show`, { method: 'POST' })).status).toBe(404)
  })

  it('answers 500 once the script is exhausted instead of waiting', async () => {
    server = await startScriptedServer({ script: [] })
    const { status, text } = await streamChat(server.url)
    expect(status).toBe(500)
    expect(text).toContain('no turn left')
  })
})

describe('reading a recorded request', () => {
  const recorded = (body: unknown): RecordedRequest => ({ index: 0, method: 'POST', path: '/v1/chat/completions', headers: {}, body, rawBody: JSON.stringify(body) })

  it('finds the newest question, the tool results after it and the system prompt', () => {
    const request = recorded({
      tools: [{ type: 'function', function: { name: 'execute_sql' } }],
      messages: [
        { role: 'system', content: 'Rules.' },
        { role: 'user', content: 'First?' },
        { role: 'tool', content: 'old result' },
        { role: 'user', content: [{ type: 'text', text: 'Revenue?' }] },
        { role: 'assistant', content: null },
        { role: 'tool', content: 'query_id: q1\nrows' }
      ]
    })
    expect(isAgentRequest(request)).toBe(true)
    expect(latestTurn(request)).toEqual({ question: '[{"type":"text","text":"Revenue?"}]', toolResults: ['query_id: q1\nrows'], system: 'Rules.' })
  })

  it('tells a memory extraction (a response_format) from an agent round', () => {
    expect(isAgentRequest(recorded({ tools: [], response_format: { type: 'json_object' }, messages: [] }))).toBe(false)
    expect(latestTurn(recorded(null))).toEqual({ question: '', toolResults: [], system: '' })
  })
})
