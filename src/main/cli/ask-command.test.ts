import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir, NAO_LAYOUT } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import type { ServerPreset } from '../agent/endpoints'
import { main } from '../cli'
import { openStore } from '../store'
import { run, toolOutputPreview } from './ask-command'
import { captureIo } from '../../../test/support/capture-io'

let server: ScriptedServer | undefined
const temps: Array<{ cleanup: () => void }> = []
afterEach(async () => {
  await server?.close()
  server = undefined
  for (const temp of temps.splice(0)) temp.cleanup()
})

async function trueRevenue(): Promise<string> {
  const instance = await DuckDBInstance.create(join(NAO_LAYOUT, 'jaffle_shop.duckdb'), { access_mode: 'READ_ONLY' })
  const connection = await instance.connect()
  const value = (await connection.runAndReadAll('SELECT SUM(amount) FROM orders')).getRowsJson()[0][0]
  connection.closeSync()
  instance.closeSync()
  return String(value)
}

describe('glassbox ask', () => {
  it('answers on the nao-layout fixture: the model receives the true revenue from execute_sql (--json)', async () => {
    const expected = await trueRevenue()
    server = await startScriptedServer({
      script: [
        { toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT SUM(amount) AS total_revenue FROM orders' } }] },
        { text: `Total revenue is ${expected}.` }
      ]
    })
    const { io, out } = captureIo()
    const code = await main(['ask', '--project', NAO_LAYOUT, '--question', 'What is the total revenue?', '--endpoint', server.url, '--model', 'scripted-model', '--json'], io)
    expect(code).toBe(0)
    const printed = JSON.parse(out())
    expect(printed).toMatchObject({
      answer: `Total revenue is ${expected}.`,
      stopReason: 'answer',
      toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT SUM(amount) AS total_revenue FROM orders' }, ok: true }],
      usage: { inputTokens: 200, outputTokens: 20 }
    })
    expect(printed.runId).toEqual(expect.any(String))
    const second = JSON.stringify(server.chatRequests()[1].body)
    expect(second).toContain(`| ${expected} |`)
    const first = JSON.parse(JSON.stringify(server.chatRequests()[0].body))
    expect(first.messages[0].role).toBe('system')
    expect(first.messages[0].content).toContain('# Instructions')
    expect(first.messages.at(-1)).toEqual({ role: 'user', content: 'What is the total revenue?' })
  })

  it('streams the answer as text and tool calls to stderr', async () => {
    server = await startScriptedServer({ script: [{ toolCalls: [{ name: 'list', args: { path: 'docs' } }] }, { text: 'There is one doc.' }] })
    const { io, out, err } = captureIo()
    const code = await run(['--project', NAO_LAYOUT, '--question', 'docs?', '--endpoint', server.url, '--model', 'm'], io)
    expect(code).toBe(0)
    expect(out()).toBe('There is one doc.\n')
    expect(err()).toContain('→ list {"path":"docs"}')
  })

  it('shows what a query returned under its call, as the answer may say "shown above"', async () => {
    const expected = await trueRevenue()
    server = await startScriptedServer({
      script: [{ toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT SUM(amount) AS total_revenue FROM orders' } }] }, { text: 'The total is shown above.' }]
    })
    const { io, out, err } = captureIo()
    expect(await run(['--project', NAO_LAYOUT, '--question', 'revenue?', '--endpoint', server.url, '--model', 'm'], io)).toBe(0)
    expect(out()).toBe('The total is shown above.\n')
    const call = err().slice(err().indexOf('→ execute_sql'))
    expect(call.split('\n').slice(1)).toEqual(expect.arrayContaining(['  | total_revenue |', `  | ${expected} |`]))
  })

  it("keeps a long tool output to its first lines, and a cell's control characters off the terminal", () => {
    const rows = Array.from({ length: 30 }, (_, index) => `| row ${index} |`)
    const preview = toolOutputPreview(['1 row', '| name |', '| \u001b]0;owned\u0007x\ry |', 'z'.repeat(500), ...rows].join('\n'))
    const lines = preview.trimEnd().split('\n')
    expect(lines).toHaveLength(13)
    expect(lines[2]).toBe('  | \\u001b]0;owned\\u0007x\\ry |')
    expect(preview).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/)
    expect(lines[3]).toBe(`  ${'z'.repeat(200)}…`)
    expect(lines.at(-1)).toBe('  … 22 more lines (--json prints them all)')
  })

  it('uses the first model the server lists when --model is absent', async () => {
    server = await startScriptedServer({ models: [{ id: 'qwen3:8b' }], script: [{ text: 'Hi.' }] })
    const { io } = captureIo()
    expect(await run(['--project', NAO_LAYOUT, '--question', 'hi', '--endpoint', server.url], io)).toBe(0)
    expect(server.chatRequests()[0].body).toMatchObject({ model: 'qwen3:8b' })
  })

  it('fails with one line and a non-zero exit when the run fails', async () => {
    server = await startScriptedServer({ script: [{ fault: 'http-500' }] })
    const { io, err } = captureIo()
    const code = await main(['ask', '--project', NAO_LAYOUT, '--question', 'hi', '--endpoint', server.url, '--model', 'm'], io)
    expect(code).toBe(1)
    expect(err()).toMatch(/^glassbox ask: The model server failed \(HTTP 500\)/)
  })

  it('says an answer cut at the output limit was cut (stopReason "length", stored) and usage the server did not report is null', async () => {
    server = await startScriptedServer({ script: [{ text: 'The total revenue', finishReason: 'length', usage: false }] })
    const temp = makeTempDir('glassbox-ask-')
    temps.push(temp)
    const dataDir = temp.dir
    const { io, out, err } = captureIo()
    const code = await main(['ask', '--project', NAO_LAYOUT, '--question', 'revenue?', '--endpoint', server.url, '--model', 'm', '--data-dir', dataDir, '--json'], io)
    expect(code).toBe(0)
    const printed = JSON.parse(out())
    expect(printed).toMatchObject({ stopReason: 'length', usage: null })
    expect(printed.answer).toMatch(/^The total revenue\n\n\(This answer was cut at the output limit of \d+ tokens/)
    expect(err()).toMatch(/^glassbox ask: the answer was cut at the output limit/)
    expect((server.chatRequests()[0].body as { max_tokens?: number }).max_tokens).toBeGreaterThan(0)
    const store = openStore(dataDir)
    try {
      expect(store.runs.getRecord(printed.runId)).toMatchObject({ stopReason: 'length', usage: null, status: 'done' })
    } finally {
      store.close()
    }
  })

  it('guides the user when no server is running', async () => {
    const { io, err } = captureIo()
    const dead: ServerPreset[] = [{ kind: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:9/v1' }]
    expect(await run(['--project', NAO_LAYOUT, '--question', 'hi'], io, { serverPresets: dead })).toBe(1)
    expect(err()).toMatch(/^glassbox ask: No local model server is running\. Start one, then try again:\n {2}Ollama: .*ollama serve/)
    const unreachable = captureIo()
    expect(await main(['ask', '--project', NAO_LAYOUT, '--question', 'hi', '--endpoint', 'http://127.0.0.1:9/v1'], unreachable.io)).toBe(1)
    expect(unreachable.err()).toMatch(/^glassbox ask: Could not list the models of http:\/\/127\.0\.0\.1:9\/v1 .*\nNo local model server is running/)
  })

  it('reports missing options and a bad endpoint as input errors', async () => {
    const { io, err } = captureIo()
    expect(await main(['ask', '--project', NAO_LAYOUT], io)).toBe(1)
    expect(err()).toBe('glassbox ask: --question TEXT is required\n')
    const bad = captureIo()
    expect(await main(['ask', '--project', NAO_LAYOUT, '--question', 'x', '--endpoint', 'nonsense'], bad.io)).toBe(1)
    expect(bad.err()).toContain('is not a URL')
  })
})
