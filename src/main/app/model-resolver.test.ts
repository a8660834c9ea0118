import { createServer, type Server } from 'node:http'
import { createServer as createNetServer } from 'node:net'
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

it('looks for a server once per preview when none answers, and again only after a while', async () => {
  // Something listens on the preset's port but is no model server: a look-up connects, then finds nothing.
  let connections = 0
  const tcp = createNetServer((socket) => {
    connections++
    socket.destroy()
  })
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve))
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50))
  try {
    const address = tcp.address()
    const port = typeof address === 'object' && address ? address.port : 0
    const resolver = new ModelResolver([{ kind: 'ollama', label: 'Ollama', baseUrl: `http://127.0.0.1:${port}/v1` }], undefined, 20, 30, undefined, 300)
    const automatic = { ...settings(''), endpoint: null, model: null }
    expect(resolver.peek(automatic).endpoint).toBeNull()
    await settle()
    const oneLookUp = connections
    expect(oneLookUp).toBeGreaterThan(0)
    // A preview right after (both of its passes) and another one use what the last look-up found.
    expect((await resolver.peekSoon(automatic)).endpoint).toBeNull()
    resolver.peek(automatic)
    await settle()
    expect(connections).toBe(oneLookUp)
    await new Promise((resolve) => setTimeout(resolve, 300))
    await resolver.peekSoon(automatic)
    await settle()
    expect(connections).toBe(2 * oneLookUp)
  } finally {
    await new Promise<void>((resolve) => tcp.close(() => resolve()))
  }
})
