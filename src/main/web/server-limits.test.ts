import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { copyNaoLayout, makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { createFakeApi } from '../../../test/e2e/fake-api'
import { MAX_CONNECTIONS, startWebServer } from './server'

// Web mode in a child process with its own limits, driven from here: a flood of idle sockets under a 1,024
// open-file limit, and a hostile user-prompt template being previewed, must not keep a real API call waiting.

const cleanups: Array<() => void> = []
const children: ChildProcess[] = []

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const cleanup of cleanups.splice(0)) cleanup()
})

const started = z.object({ url: z.string(), token: z.string() })

/** Starts web mode for `project` under `ulimit -n 1024` and resolves with its URL and token. */
async function startChildServer(project: string): Promise<z.infer<typeof started>> {
  const data = makeTempDir('glassbox-web-limits-data-')
  const renderer = makeTempDir('glassbox-web-limits-renderer-')
  cleanups.push(data.cleanup, renderer.cleanup)
  writeFileSync(join(renderer.dir, 'index.html'), '<!doctype html><title>Glassbox</title>')
  const script = join(import.meta.dirname, 'server-child.ts')
  const child = spawn('bash', ['-c', 'ulimit -n 1024 && exec "$0" --import tsx "$@"', process.execPath, script, project, data.dir, renderer.dir], {
    cwd: REPO_ROOT,
    // The system prompt's JSX compiles with the project's settings, as in the bundle.
    env: { ...process.env, TSX_TSCONFIG_PATH: join(REPO_ROOT, 'tsconfig.node.json') },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('\n')) resolve(started.parse(JSON.parse(stdout.split('\n')[0])))
    })
    child.on('exit', (code) => reject(new Error(`web mode exited (${code}): ${stderr}`)))
  })
}

function call(server: z.infer<typeof started>, op: string, body: unknown, timeoutMs: number): Promise<Response> {
  return fetch(`${server.url}api/${op}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.token}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs)
  })
}

/** Opens `count` sockets that each send half a request line and then nothing; resolves once all are connected. */
async function openIdleSockets(port: number, count: number): Promise<Socket[]> {
  const sockets: Socket[] = []
  await Promise.all(
    Array.from({ length: count }, () =>
      new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n')
          resolve()
        })
        // A socket the server closes (or never accepts) counts as opened: the flood is what it is.
        socket.on('error', () => resolve())
        socket.on('close', () => resolve())
        sockets.push(socket)
      })
    )
  )
  return sockets
}

describe('web mode under load', () => {
  // Hang guards, not timings: before, the API call timed out behind the flood, and waited for the whole render.
  it('answers an API call at once while 1,100 idle sockets are open under a 1,024 open-file limit', { timeout: 60_000 }, async () => {
    const project = copyNaoLayout()
    cleanups.push(project.cleanup)
    const server = await startChildServer(project.dir)
    const sockets = await openIdleSockets(Number(new URL(server.url).port), 1_100)
    cleanups.push(() => sockets.forEach((socket) => socket.destroy()))
    const before = performance.now()
    const response = await call(server, 'listChats', {}, 3_000)
    console.log(`[web] listChats behind 1,100 idle sockets: ${Math.round(performance.now() - before)} ms`)
    expect(response.status).toBe(200)
  })

  it('answers listChats while a hostile user-prompt template is previewed, and names the file', { timeout: 60_000 }, async () => {
    const project = copyNaoLayout()
    cleanups.push(project.cleanup)
    // Doubling inline partials behind a condition the load-time check (a short question) does not take.
    const partials = ['{{#*inline "p0"}}{{!-- nothing --}}{{/inline}}']
    for (let level = 1; level <= 40; level++) partials.push(`{{#*inline "p${level}"}}{{> p${level - 1}}}{{> p${level - 1}}}{{/inline}}`)
    mkdirSync(join(project.dir, 'agent', 'prompts'), { recursive: true })
    writeFileSync(join(project.dir, 'agent', 'prompts', 'user-prompt.md'), `${partials.join('\n')}\n{{#if (lookup query 40)}}{{> p40}}{{/if}}\nQ: {{query}}\n`)
    const server = await startChildServer(project.dir)
    const question = 'Which regions grew fastest in the third quarter, and why did they?'
    const preview = call(server, 'previewPrompt', { question, attachments: ['RULES.md'] }, 10_000)
    const chats = await call(server, 'listChats', {}, 5_000)
    expect(chats.status).toBe(200)
    const previewed = z.object({ result: z.object({ user: z.string(), diagnostics: z.array(z.object({ file: z.string(), problem: z.string() })) }) })
    const body: unknown = await (await preview).json()
    const { result } = previewed.parse(body)
    expect(result.diagnostics).toContainEqual({
      file: 'agent/prompts/user-prompt.md',
      problem: 'took over 250 ms to render (nested partials or loops?); the built-in user prompt template is used instead'
    })
    expect(result.user).toContain(question)
  })
})

describe('the connection cap', () => {
  it('closes the connections idle the longest to make room, never a live event stream', { timeout: 60_000 }, async () => {
    const api = createFakeApi({ chunkDelayMs: 1 })
    const renderer = makeTempDir('glassbox-web-cap-renderer-')
    cleanups.push(renderer.cleanup)
    const server = await startWebServer({ api, rendererDir: renderer.dir })
    cleanups.push(() => void server.close().then(() => api.close()))
    const controller = new AbortController()
    const stream = await fetch(`${server.url}api/events?token=${server.token}`, { signal: controller.signal })
    const reader = stream.body?.getReader()
    if (!reader) throw new Error('The event stream has no body.')

    const sockets = await openIdleSockets(server.port, MAX_CONNECTIONS + 50)
    cleanups.push(() => sockets.forEach((socket) => socket.destroy()))
    // The first 50 idle ones (and one more for each call below) make room for the newer ones.
    await expect.poll(() => sockets.filter((socket) => socket.destroyed || socket.readyState === 'closed').length).toBeGreaterThanOrEqual(50)
    expect(sockets.slice(-100).every((socket) => !socket.destroyed)).toBe(true)

    const chats = z.object({ result: z.array(z.object({ id: z.string() })) }).parse(await (await call(server, 'listChats', {}, 5_000)).json())
    await call(server, 'sendMessage', { chatId: chats.result[0].id, text: 'monthly revenue' }, 5_000)
    let text = ''
    while (!text.includes('"run-start"')) text += new TextDecoder().decode((await reader.read()).value)
    controller.abort()
  })
})
