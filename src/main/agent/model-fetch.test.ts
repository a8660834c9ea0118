import { createServer, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createChatModel } from './chat-model'
import { classifyModelError } from './model-errors'
import { isStaleConnection, retryStaleConnection, type FetchLike } from './model-fetch'

// A real HTTP server on loopback that advertises keep-alive and answers the first request on each
// connection. Then, by mode: 'on-next-request' closes the connection when the next request arrives on it,
// without answering (the race, made deterministic); 'after-answer' closes it right after the answer, as
// llama.cpp's server did, so a request sent at once may meet the closing socket.
interface ClosingServer {
  url: string
  connections: () => number
  answered: () => number
  close: () => Promise<void>
}

const COMPLETION = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  created: 0,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 }
})

async function startClosingServer(mode: 'on-next-request' | 'after-answer' = 'on-next-request'): Promise<ClosingServer> {
  let connections = 0
  let answered = 0
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    let requests = 0
    let buffer = ''
    socket.on('data', (data) => {
      buffer += data.toString('latin1')
      // One request = headers + Content-Length body.
      const end = buffer.indexOf('\r\n\r\n')
      if (end === -1) return
      const length = Number(/content-length:\s*(\d+)/i.exec(buffer.slice(0, end))?.[1] ?? 0)
      if (buffer.length < end + 4 + length) return
      buffer = buffer.slice(end + 4 + length)
      if (++requests > 1) {
        socket.destroy()
        return
      }
      answered++
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: keep-alive\r\nkeep-alive: timeout=60\r\ncontent-length: ${Buffer.byteLength(COMPLETION)}\r\n\r\n${COMPLETION}`
      )
      if (mode === 'after-answer') socket.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    connections: () => connections,
    answered: () => answered,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** Long enough for the answered socket to be back in the client's pool, idle. */
const idle = () => new Promise((resolve) => setTimeout(resolve, 20))

const post = (fetchImpl: FetchLike, url: string) =>
  fetchImpl(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages":[]}' })

let server: ClosingServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

describe('retryStaleConnection', () => {
  it('reproduces the race: a plain fetch on the closed keep-alive socket fails with "other side closed"', async () => {
    server = await startClosingServer()
    const plain: FetchLike = (input, init) => fetch(input, init)
    // Reading the body hands the socket back to the pool, idle.
    expect(await (await post(plain, server.url)).json()).toMatchObject({ id: 'c1' })
    await idle()
    const failure = await post(plain, server.url).then(
      () => null,
      (error: unknown) => error
    )
    expect(failure).toBeInstanceOf(Error)
    expect(isStaleConnection(failure)).toBe(true)
  })

  it('retries that failure once on a fresh connection, and the request succeeds', async () => {
    server = await startClosingServer()
    const retrying = retryStaleConnection((input, init) => fetch(input, init))
    for (let i = 0; i < 3; i++) {
      expect(await (await post(retrying, server.url)).json()).toMatchObject({ id: 'c1' })
      await idle()
    }
    expect(server.answered()).toBe(3)
    expect(server.connections()).toBe(3)
  })

  it('keeps ChatOpenAI requests alive back to back (an answer, then the memory request)', async () => {
    server = await startClosingServer()
    const model = createChatModel({ baseUrl: server.url, model: 'm' }, { streaming: false })
    expect((await model.invoke('one')).content).toBe('ok')
    await idle()
    expect((await model.invoke('two')).content).toBe('ok')
    // The second request met the closed socket and went again on a second connection.
    expect(server.connections()).toBe(2)
  })

  it('survives a server that closes each connection right after answering, with requests sent back to back', async () => {
    server = await startClosingServer('after-answer')
    const model = createChatModel({ baseUrl: server.url, model: 'm' }, { streaming: false })
    for (let i = 0; i < 10; i++) expect((await model.invoke(`question ${i}`)).content).toBe('ok')
    expect(server.answered()).toBe(10)
  })

  it('does not retry a refused connection, an HTTP error or a cancelled request', async () => {
    let attempts = 0
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) })
    const failing = retryStaleConnection(async () => {
      attempts++
      throw refused
    })
    await expect(post(failing, 'http://127.0.0.1:1')).rejects.toBe(refused)
    expect(attempts).toBe(1)

    attempts = 0
    const http500 = retryStaleConnection(async () => {
      attempts++
      return new Response('no', { status: 500 })
    })
    expect((await post(http500, 'http://x')).status).toBe(500)
    expect(attempts).toBe(1)

    attempts = 0
    const controller = new AbortController()
    const stale = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) })
    const cancelled = retryStaleConnection(async () => {
      attempts++
      controller.abort()
      throw stale
    })
    await expect(cancelled('http://x', { method: 'POST', body: '{}', signal: controller.signal })).rejects.toBe(stale)
    expect(attempts).toBe(1)
  })

  it('a stale socket that fails twice is reported as a lost connection, not as a server that is not running', async () => {
    const stale = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) })
    const failure = classifyModelError(stale, 'http://127.0.0.1:8080/v1')
    expect(failure.kind).toBe('disconnected')
    expect(failure.message).not.toMatch(/Is it running/)
  })
})
