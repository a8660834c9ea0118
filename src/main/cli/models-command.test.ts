import { afterEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import type { ServerPreset } from '../agent/endpoints'
import { run } from './models-command'
import { captureIo } from '../../../test/support/capture-io'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const DEAD: ServerPreset[] = [
  { kind: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:9/v1' },
  { kind: 'llama.cpp', label: 'llama.cpp server', baseUrl: 'http://127.0.0.1:7/v1' }
]

describe('glassbox models', () => {
  it('lists the detected servers with models and context windows', async () => {
    server = await startScriptedServer({ models: [{ id: 'qwen3-8b' }], llamaProps: { default_generation_settings: { n_ctx: 16384 } } })
    const { io, out } = captureIo()
    const code = await run([], io, [...DEAD, { kind: 'llama.cpp', label: 'llama.cpp server', baseUrl: server.url }])
    expect(code).toBe(0)
    expect(out()).toBe(`llama.cpp server — ${server.url}\n  qwen3-8b  16,384 tokens (llama.cpp /props n_ctx)\n`)
  })

  it('prints JSON for one endpoint', async () => {
    server = await startScriptedServer({ models: [{ id: 'big', max_model_len: 131072 }] })
    const { io, out } = captureIo()
    expect(await run(['--endpoint', server.origin, '--json'], io)).toBe(0)
    const printed = JSON.parse(out())
    expect(printed.servers[0]).toMatchObject({ baseUrl: server.url, models: [{ id: 'big', contextWindow: 131072 }] })
  })

  it('names one endpoint once, beside its URL', async () => {
    server = await startScriptedServer({ models: [{ id: 'big', max_model_len: 131072 }] })
    const { io, out } = captureIo()
    expect(await run(['--endpoint', server.origin], io)).toBe(0)
    expect(out()).toBe(`Model server — ${server.url}\n  big  131,072 tokens (vLLM /v1/models max_model_len)\n`)
  })

  it('tells how to start Ollama or llama.cpp when nothing is running', async () => {
    const { io, out, err } = captureIo()
    expect(await run(['--json'], io, DEAD)).toBe(1)
    expect(JSON.parse(out())).toEqual({ servers: [] })
    expect(err()).toContain('No local model server is running')
    expect(err()).toContain('ollama serve')
    expect(err()).toContain('llama-server -m model.gguf')
  })

  it('explains an unreachable endpoint', async () => {
    const { io } = captureIo()
    await expect(run(['--endpoint', 'http://127.0.0.1:9/v1'], io)).rejects.toThrow(/^no model server answered at http:\/\/127\.0\.0\.1:9\/v1/)
  })
})
