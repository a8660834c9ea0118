import { createServer, type Server } from 'node:http'
import { afterEach, expect, it } from 'vitest'
import type { Settings } from '../../shared/api'
import { DEFAULT_CONTEXT_SOURCE, DEFAULT_CONTEXT_WINDOW, ModelResolver } from './model-resolver'

// A server that does not say its window at first (llama-cpp-python has no /props) may say it later:
// the resolver asks again and uses what it finds.

let server: Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

const settings = (endpoint: string): Settings => ({
  endpoint,
  model: 'local-model',
  memoryModel: null,
  testMode: false,
  channel: null,
  timezone: 'UTC',
  memoryEnabled: true,
  memoryBudget: 1000,
  contextWindow: null
})

it('budgets against the default while the server does not say, then uses the window it reports later', async () => {
  let props: Record<string, unknown> | null = null
  server = createServer((req, res) => {
    const body = req.url === '/v1/models' ? { data: [{ id: 'local-model' }] } : req.url === '/props' && props ? props : null
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body ?? { error: 'not found' }))
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`
  const resolver = new ModelResolver([], undefined, 20)

  const first = await resolver.resolve(settings(endpoint))
  expect(first.info.contextWindow).toBe(DEFAULT_CONTEXT_WINDOW)
  expect(first.contextSource).toBe(DEFAULT_CONTEXT_SOURCE)

  props = { default_generation_settings: { n_ctx: 24576 } }
  await new Promise((resolve) => setTimeout(resolve, 60))
  const later = await resolver.resolve(settings(endpoint))
  expect(later.info.contextWindow).toBe(24576)
  expect(later.contextSource).toBe('llama.cpp /props n_ctx')
  expect(resolver.peek(settings(endpoint)).info).toMatchObject({ contextWindow: 24576, contextSource: 'llama.cpp /props n_ctx' })
})

it('has a preview read a window it has known for a while again, so a restarted server is seen without a run', async () => {
  const props = { default_generation_settings: { n_ctx: 8192 } }
  server = createServer((req, res) => {
    const body = req.url === '/v1/models' ? { data: [{ id: 'local-model' }] } : req.url === '/props' ? props : null
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body ?? { error: 'not found' }))
  })
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`
  const resolver = new ModelResolver([], undefined, 20, 30)

  expect((await resolver.peekSoon(settings(endpoint))).info.contextWindow).toBe(8192)
  props.default_generation_settings.n_ctx = 2048
  // Within the recheck time the known window is used as it is.
  expect(resolver.peek(settings(endpoint)).info.contextWindow).toBe(8192)
  await new Promise((resolve) => setTimeout(resolve, 50))
  // Past it: this preview still shows what is known and starts the look-up the next one waits for.
  resolver.peek(settings(endpoint))
  expect((await resolver.peekSoon(settings(endpoint))).info.contextWindow).toBe(2048)
})
