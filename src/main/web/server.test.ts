import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createFakeApi, type FakeApi } from '../../../test/e2e/fake-api'
import { RENDERER_CSP } from './csp'
import { startWebServer, type WebServer } from './server'

// The web server's boundary: token, Host/Origin, schemas, static files. Real HTTP on loopback.

let server: WebServer
let api: FakeApi
let rendererDir: string
let outside: string

beforeAll(async () => {
  rendererDir = mkdtempSync(join(tmpdir(), 'glassbox-renderer-'))
  outside = mkdtempSync(join(tmpdir(), 'glassbox-outside-'))
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Glassbox</title>')
  mkdirSync(join(rendererDir, 'assets'))
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(outside, 'secret.txt'), 'secret')
  symlinkSync(join(outside, 'secret.txt'), join(rendererDir, 'assets', 'link.txt'))
  api = createFakeApi({ chunkDelayMs: 1 })
  server = await startWebServer({ api, rendererDir })
})

afterAll(async () => {
  await server.close()
  await api.close()
  rmSync(rendererDir, { recursive: true, force: true })
  rmSync(outside, { recursive: true, force: true })
})

function call(op: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}api/${op}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body)
  })
}

const errorBody = z.object({ error: z.string(), issues: z.array(z.object({ path: z.string(), message: z.string() })).optional() })
const chatsBody = z.object({ result: z.array(z.object({ id: z.string() })) })

async function errorOf(response: Response): Promise<z.infer<typeof errorBody>> {
  return errorBody.parse(await response.json())
}

async function chatIds(): Promise<string[]> {
  return chatsBody.parse(await (await call('listChats', {})).json()).result.map((chat) => chat.id)
}

/** A raw request, for what fetch will not send (another Host, an unnormalised path). */
function raw(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'GET', headers }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('web server', () => {
  it('listens on 127.0.0.1 only and answers a valid call', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
    const response = await call('listChats', {})
    expect(response.status).toBe(200)
    expect(chatsBody.parse(await response.json()).result.length).toBeGreaterThan(0)
  })

  it('refuses a call without the token', async () => {
    const response = await fetch(`${server.url}api/listChats`, { method: 'POST', body: '{}' })
    expect(response.status).toBe(401)
    expect((await errorOf(response)).error).toMatch(/token/)
  })

  it('refuses a wrong token', async () => {
    const response = await call('listChats', {}, { Authorization: 'Bearer nope' })
    expect(response.status).toBe(401)
  })

  it('refuses a foreign Origin', async () => {
    const response = await call('listChats', {}, { Origin: 'https://evil.example' })
    expect(response.status).toBe(403)
    expect((await errorOf(response)).error).toContain('requests from origin "https://evil.example" are not allowed')
  })

  it('accepts its own Origin', async () => {
    const response = await call('listChats', {}, { Origin: `http://127.0.0.1:${server.port}` })
    expect(response.status).toBe(200)
  })

  it('refuses a foreign Host (DNS rebinding)', async () => {
    const response = await raw('/', { Host: `evil.example:${server.port}` })
    expect(response.status).toBe(403)
    expect(errorBody.parse(JSON.parse(response.body)).error).toContain('Host "evil.example')
  })

  it('rejects a missing field with the zod issue', async () => {
    const response = await call('getChat', {})
    expect(response.status).toBe(400)
    const body = await errorOf(response)
    expect(body.error).toContain('Invalid input for getChat')
    expect(body.issues?.[0].path).toBe('chatId')
  })

  it('rejects an extra field', async () => {
    const response = await call('listChats', { search: 'x', admin: true })
    expect(response.status).toBe(400)
    expect((await errorOf(response)).error).toContain('admin')
  })

  it('rejects a wrongly typed field', async () => {
    const response = await call('setMemoryEnabled', { id: 1, enabled: 'yes' })
    expect(response.status).toBe(400)
    expect((await errorOf(response)).issues?.[0].path).toBe('enabled')
  })

  it('rejects a body that is not JSON', async () => {
    const response = await call('listChats', '{nope')
    expect(response.status).toBe(400)
    expect((await errorOf(response)).error).toContain('not valid JSON')
  })

  it('answers 404 for an unknown operation', async () => {
    const response = await call('dropDatabase', {})
    expect(response.status).toBe(404)
    expect((await errorOf(response)).error).toBe('Unknown operation "dropDatabase".')
  })

  it('passes a service error through with its message (a path outside the project)', async () => {
    const [chatId] = await chatIds()
    const response = await call('sendMessage', { chatId, text: 'hi', attachments: ['../../etc/passwd'] })
    expect(response.status).toBe(500)
    expect((await errorOf(response)).error).toMatch(/outside the project folder/)
  })

  it('serves the renderer with the strict CSP', async () => {
    const response = await fetch(server.url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-security-policy')).toBe(RENDERER_CSP)
    expect(await response.text()).toContain('<title>Glassbox</title>')
  })

  it('refuses paths that leave the renderer folder', async () => {
    for (const path of ['/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f..%2fetc/passwd']) {
      const response = await raw(path, { Host: `127.0.0.1:${server.port}` })
      expect([400, 404]).toContain(response.status)
      expect(response.body).not.toContain('root:')
    }
  })

  it('refuses a symlink that points outside the renderer folder', async () => {
    const response = await raw('/assets/link.txt', { Host: `127.0.0.1:${server.port}` })
    expect(response.status).toBe(400)
    expect(response.body).not.toContain('secret')
  })

  it('streams push events over SSE only with the token', async () => {
    expect((await fetch(`${server.url}api/events`)).status).toBe(401)
    const controller = new AbortController()
    const response = await fetch(`${server.url}api/events?token=${server.token}`, { signal: controller.signal })
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const reader = response.body?.getReader()
    if (!reader) throw new Error('The event stream has no body.')
    const [chatId] = await chatIds()
    await call('sendMessage', { chatId, text: 'monthly revenue' })
    let text = ''
    while (!text.includes('"run-start"')) text += new TextDecoder().decode((await reader.read()).value)
    controller.abort()
    expect(text).toContain('"channel":"run"')
  })
})
