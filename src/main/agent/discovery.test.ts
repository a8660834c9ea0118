import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../../../test/support/scripted-openai-server'
import { describeModel, detectServers, listModels } from './discovery'

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})
async function serve(options: ScriptedServerOptions): Promise<ScriptedServer> {
  server = await startScriptedServer(options)
  return server
}

describe('model discovery', () => {
  it('reads Ollama /api/show: num_ctx in use, trained length, capabilities', async () => {
    const { url } = await serve({
      models: [{ id: 'qwen3:8b' }],
      ollamaShow: {
        model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 },
        parameters: 'temperature 0.6\nnum_ctx 16384',
        capabilities: ['completion', 'tools']
      }
    })
    expect(await listModels(url, { kind: 'ollama' })).toEqual([
      { id: 'qwen3:8b', contextWindow: 16384, contextSource: 'Ollama /api/show num_ctx', maxContextLength: 40960, vision: false, tools: true }
    ])
  })

  it('assumes Ollama default num_ctx when the model sets none', async () => {
    const { url } = await serve({ ollamaShow: { model_info: { 'llama.context_length': 131072 } } })
    const [model] = await listModels(url, { kind: 'ollama' })
    expect(model.contextWindow).toBe(4096)
    expect(model.maxContextLength).toBe(131072)
  })

  it('reads llama.cpp /props n_ctx, nested or at the top level', async () => {
    const nested = await serve({ llamaProps: { default_generation_settings: { n_ctx: 8192 }, modalities: { vision: true } } })
    expect(await describeModel(nested.url, 'any', { kind: 'llama.cpp' })).toMatchObject({ contextWindow: 8192, vision: true })
    await nested.close()
    const top = await serve({ llamaProps: { n_ctx: 4096 } })
    expect((await describeModel(top.url, 'any', { kind: 'llama.cpp' })).contextWindow).toBe(4096)
  })

  it('reads llama.cpp chat_template_caps.supports_tools and /v1/models meta.n_ctx_train', async () => {
    const { url } = await serve({
      models: [{ id: 'tiny.gguf', meta: { n_ctx: 8192, n_ctx_train: 32768 } }],
      llamaProps: { default_generation_settings: { n_ctx: 8192 }, chat_template_caps: { supports_tools: false } }
    })
    expect(await listModels(url, { kind: 'llama.cpp' })).toEqual([
      { id: 'tiny.gguf', contextWindow: 8192, contextSource: 'llama.cpp /props n_ctx', maxContextLength: 32768, vision: null, tools: false }
    ])
  })

  it('on a non-default port asks /props without waiting for an Ollama probe that does not answer', async () => {
    const hanging = createServer((req, res) => {
      if (req.url === '/props') return void res.end(JSON.stringify({ n_ctx: 4096, chat_template_caps: { supports_tools: true } }))
      if (req.url === '/api/show') return // never answers: the probe can only time out
      res.statusCode = 404
      res.end('{}')
    })
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = hanging.address() as AddressInfo
      const started = performance.now()
      const info = await describeModel(`http://127.0.0.1:${port}/v1`, 'm', { kind: 'custom', timeoutMs: 3_000 })
      expect(info).toMatchObject({ contextWindow: 4096, contextSource: 'llama.cpp /props n_ctx', tools: true })
      expect(performance.now() - started).toBeLessThan(1_500)
    } finally {
      hanging.closeAllConnections()
      await new Promise((resolve) => hanging.close(resolve))
    }
  })

  it('reads LM Studio /api/v0/models and vLLM max_model_len', async () => {
    const lm = await serve({
      models: [{ id: 'qwen2.5-7b' }],
      lmStudioModels: { data: [{ id: 'qwen2.5-7b', type: 'vlm', max_context_length: 32768, loaded_context_length: 8192, capabilities: ['tool_use'] }] }
    })
    expect((await listModels(lm.url, { kind: 'lmstudio' }))[0]).toMatchObject({ contextWindow: 8192, maxContextLength: 32768, vision: true, tools: true })
    await lm.close()
    const vllm = await serve({ models: [{ id: 'meta-llama/Llama-3.1-8B', max_model_len: 65536 }] })
    expect((await listModels(vllm.url, { kind: 'vllm' }))[0].contextSource).toBe('vLLM /v1/models max_model_len')
  })

  it('falls back to the configured window; malformed answers mean unknown', async () => {
    const { url } = await serve({ llamaProps: { n_ctx: 'big' }, ollamaShow: { model_info: 'nope' } })
    expect(await describeModel(url, 'm', { configuredContextWindow: 12000 })).toMatchObject({ contextWindow: 12000, contextSource: 'configured' })
    expect(await describeModel(url, 'm')).toMatchObject({ contextWindow: null, contextSource: 'unknown' })
  })

  it('detects running servers in parallel and skips the silent ones', async () => {
    const running = await serve({ models: [{ id: 'a' }, { id: 'b' }] })
    const started = performance.now()
    const found = await detectServers({
      timeoutMs: 500,
      presets: [
        { kind: 'custom', label: 'Scripted', baseUrl: running.url },
        { kind: 'jan', label: 'Jan', baseUrl: 'http://127.0.0.1:9/v1' }
      ]
    })
    expect(found.map((entry) => [entry.label, entry.models.map((model) => model.id)])).toEqual([['Scripted', ['a', 'b']]])
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
