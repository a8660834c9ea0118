import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { copyNaoLayout, makeTempDir } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from '../app/create-glassbox'
import { startWebServer, type WebServer } from './server'

// #11, smaller items, against the real services behind the real web server: the token only in a header for
// API calls, endpoints checked as http(s) URLs at the boundary, unknown ids and refused attachments as 4xx
// with a clear message, and attachments hidden from the agent refused (B9).

let project: ReturnType<typeof copyNaoLayout>
let data: ReturnType<typeof makeTempDir>
let renderer: ReturnType<typeof makeTempDir>
let model: ScriptedServer
let glassbox: Glassbox
let server: WebServer

beforeAll(async () => {
  project = copyNaoLayout()
  data = makeTempDir()
  renderer = makeTempDir()
  writeFileSync(join(renderer.dir, 'index.html'), '<!doctype html><title>Glassbox</title>')
  mkdirSync(join(project.dir, '.git'), { recursive: true })
  writeFileSync(join(project.dir, '.git', 'config'), 'SECRET-GIT-CONFIG\n')
  mkdirSync(join(project.dir, 'private'), { recursive: true })
  writeFileSync(join(project.dir, 'private', 'notes.txt'), 'SECRET-IGNORED-NOTE\n')
  writeFileSync(join(project.dir, '.naoignore'), 'private/\n')
  writeFileSync(join(project.dir, 'docs', 'redos.md'), 'a'.repeat(40) + '!\n')
  // Asked about "REDOS", the model greps with a pattern that backtracks exponentially on that line.
  model = await startScriptedServer({
    script: (request) => {
      const sent = JSON.stringify(request.body)
      const askedRedos = sent.includes('REDOS') && !sent.includes('"role":"tool"')
      return askedRedos ? { toolCalls: [{ name: 'grep', args: { pattern: '^(a+)+$' } }] } : { text: 'ok' }
    }
  })
  glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: model.url, model: 'scripted-model', watch: false, extractMemories: false })
  server = await startWebServer({ api: glassbox, rendererDir: renderer.dir })
})

afterAll(async () => {
  await server.close()
  await glassbox.close()
  await model.close()
  project.cleanup()
  data.cleanup()
  renderer.cleanup()
})

const errorOf = async (response: Response): Promise<string> => z.object({ error: z.string() }).parse(await response.json()).error

function call(op: string, body: unknown, auth: 'header' | 'query' = 'header'): Promise<Response> {
  const query = auth === 'query' ? `?token=${encodeURIComponent(server.token)}` : ''
  return fetch(`${server.url}api/${op}${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(auth === 'header' ? { Authorization: `Bearer ${server.token}` } : {}) },
    body: JSON.stringify(body)
  })
}

describe('web mode against hostile input (#11)', () => {
  it('refuses ?token= on an API call; the header works', async () => {
    const refused = await call('listChats', {}, 'query')
    expect(refused.status).toBe(401)
    expect(await errorOf(refused)).toMatch(/Authorization header/)
    expect((await call('listChats', {})).status).toBe(200)
  })

  it('still accepts ?token= on the event stream, where EventSource cannot send a header', async () => {
    const controller = new AbortController()
    const response = await fetch(`${server.url}api/events?token=${server.token}`, { signal: controller.signal })
    expect(response.status).toBe(200)
    controller.abort()
  })

  it('refuses endpoints that are not http(s) URLs at the boundary, and saves nothing', async () => {
    for (const endpoint of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<script>1</script>']) {
      const response = await call('updateSettings', { endpoint })
      expect(response.status).toBe(400)
      expect(await errorOf(response)).toMatch(/endpoint: must be an http:\/\/ or https:\/\/ address/)
    }
    const settings = z.object({ result: z.object({ endpoint: z.string().nullable() }) }).parse(await (await call('getSettings', {})).json()).result
    expect(settings.endpoint ?? '').not.toMatch(/javascript|file:|data:/)
  })

  it('answers an unknown chat id with 404 and a clear message, not 500', async () => {
    for (const op of ['getChat', 'deleteChat', 'sendMessage', 'regenerate']) {
      const body = op === 'sendMessage' ? { chatId: 'no-such-chat', text: 'hi' } : { chatId: 'no-such-chat' }
      const response = await call(op, body)
      expect(response.status, op).toBe(404)
      expect(await errorOf(response), op).toMatch(/no chat with id no-such-chat/i)
    }
    const run = await call('getRun', { runId: 'no-such-run' })
    expect(run.status).toBe(404)
  })

  it('answers feedback on an unknown answer with 404, on a question with 400, and init of a missing folder with 400', async () => {
    for (const [op, body] of [['setFeedback', { messageId: 'no-such-message', rating: 'up' }], ['previewTestCase', { messageId: 'no-such-message' }], ['saveTestCase', { messageId: 'no-such-message' }]] as const) {
      const response = await call(op, body)
      expect(response.status, op).toBe(404)
      expect(await errorOf(response), op).toMatch(/no message with id no-such-message/)
    }
    const chat = z.object({ result: z.object({ id: z.string() }) }).parse(await (await call('createChat', {})).json()).result
    await call('sendMessage', { chatId: chat.id, text: 'hello' })
    const question = z.object({ result: z.object({ messages: z.array(z.object({ id: z.string(), role: z.string() })) }) }).parse(await (await call('getChat', { chatId: chat.id })).json()).result.messages[0]
    const rated = await call('setFeedback', { messageId: question.id, rating: 'down' })
    expect(rated.status).toBe(400)
    expect(await errorOf(rated)).toBe('Only answers can be rated.')
    expect((await call('setFeedback', { messageId: question.id, rating: 'meh' })).status).toBe(400)
    const init = await call('initProject', { path: '/no/such/folder' })
    expect(init.status).toBe(400)
    expect(await errorOf(init)).toBe('not found: /no/such/folder')
  })

  it('refuses attachments under .git/, hidden by .naoignore, or outside the project (B9): 400, nothing sent', async () => {
    const chat = z.object({ result: z.object({ id: z.string() }) }).parse(await (await call('createChat', {})).json()).result
    for (const attachment of ['.git/config', 'private/notes.txt', '/etc/hostname', '../../etc/passwd']) {
      for (const op of ['sendMessage', 'previewPrompt']) {
        const body = op === 'sendMessage' ? { chatId: chat.id, text: 'Read this', attachments: [attachment] } : { chatId: chat.id, question: 'Read this', attachments: [attachment] }
        const response = await call(op, body)
        expect(response.status, `${op} ${attachment}`).toBe(400)
        const error = await errorOf(response)
        expect(error).toMatch(/hidden from the agent|outside the project|out of the project/)
        expect(error).not.toMatch(/SECRET/)
      }
    }
    expect(JSON.stringify(model.chatRequests())).not.toMatch(/SECRET/)
  })

  it('a catastrophic grep from the model (B3) leaves the server answering, and ends with "too costly"', async () => {
    const chat = z.object({ result: z.object({ id: z.string() }) }).parse(await (await call('createChat', {})).json()).result
    const sent = z.object({ result: z.object({ runId: z.string() }) }).parse(await (await call('sendMessage', { chatId: chat.id, text: 'REDOS please' })).json())
    await new Promise((resolve) => setTimeout(resolve, 300))
    for (let probe = 0; probe < 5; probe++) {
      const started = Date.now()
      expect((await fetch(server.url)).status).toBe(200)
      expect((await call('listChats', {})).status).toBe(200)
      expect(Date.now() - started).toBeLessThan(1_000)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    await glassbox.waitForRun(sent.result.runId)
    const tool = (await glassbox.getChat({ chatId: chat.id })).messages.at(-1)?.toolCalls?.find((call) => call.name === 'grep')
    expect(tool?.output, JSON.stringify(tool).slice(0, 3000)).toMatch(/too costly.*docs\/redos\.md/)
  }, 30_000)
})
