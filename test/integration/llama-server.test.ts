import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { listModels } from '../../src/main/agent/discovery'
import { runAgent, type RunOutcome } from '../../src/main/agent/run-agent'
import { ServerTokenCounter } from '../../src/main/agent/server-token-count'
import { createGlassbox, type Glassbox } from '../../src/main/app/create-glassbox'
import type { RunEvent } from '../../src/shared/events'
import { makeTempDir } from '../support/fixtures'
import { findLlamaServer, startLlamaServer, type LlamaLocation, type RunningLlama } from '../support/llama-server'

// The real llama.cpp server (upstream build, tiny planted models, see ../shared/tools/llama/README.md) driven
// through the real services: discovery, prompt assembly and budget, the agent loop with real SQL, stored
// runs, the CLI and memory extraction. The planted model picks its branch at random (a tool call or a line
// of text), so cases that need one branch ask again until it comes, a bounded number of times.

const found = findLlamaServer()
const REQUIRED = process.env.GLASSBOX_REQUIRE_LLAMA === '1'
const location: LlamaLocation | null = 'missing' in found ? null : found

if (!location) {
  if (REQUIRED) {
    it('llama-server is available (GLASSBOX_REQUIRE_LLAMA=1)', () => {
      throw new Error(`GLASSBOX_REQUIRE_LLAMA=1 but ${'missing' in found ? found.missing : ''}`)
    })
  } else {
    console.info(`[llama-server suite skipped] ${'missing' in found ? found.missing : ''}`)
  }
}

// Skipped, with the one-line hint printed above, when no llama-server is found (a user's clone has no
// ../shared beside it); CI sets GLASSBOX_REQUIRE_LLAMA=1, which turns that into a failure instead.
const suite = location ? describe : describe.skip
// Generous: each case takes seconds on an idle machine, far more on a busy one.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 })
const ATTEMPTS = 12
const REVENUE = 1234.5

/** A project with one SQLite database holding orders(amount), described the nao way. */
function makeShopProject(): { dir: string; cleanup: () => void } {
  const temp = makeTempDir('glassbox-llama-')
  const dir = temp.dir
  const db = new Database(join(dir, 'shop.sqlite'))
  db.exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY, amount REAL NOT NULL)`)
  const insert = db.prepare(`INSERT INTO orders (amount) VALUES (?)`)
  for (const amount of [1000, 200, 34.5]) insert.run(amount)
  db.close()
  writeFileSync(join(dir, 'nao_config.yaml'), 'project_name: shop\ndatabases:\n- {name: shop, type: sqlite, path: ./shop.sqlite}\n')
  const table = join(dir, 'databases/type=sqlite/database=shop/schema=main/table=orders')
  mkdirSync(table, { recursive: true })
  writeFileSync(join(table, 'columns.md'), '# orders\n\n- id INTEGER\n- amount REAL: order amount in EUR\n')
  writeFileSync(join(dir, 'RULES.md'), 'Revenue is SUM(amount) over orders.\n')
  return temp
}

suite('a real llama.cpp server', () => {
  const servers: RunningLlama[] = []
  let project: { dir: string; cleanup: () => void }
  let data: { dir: string; cleanup: () => void }

  const start = async (...args: Parameters<typeof startLlamaServer> extends [unknown, ...infer Rest] ? Rest : never): Promise<RunningLlama> => {
    if (!location) throw new Error('no llama-server')
    const server = await startLlamaServer(location, ...args)
    servers.push(server)
    return server
  }
  const open = (server: RunningLlama, extra: { extractMemories?: boolean } = {}): Promise<Glassbox> =>
    createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: server.url, model: server.model, watch: false, extractMemories: false, ...extra })

  async function ask(app: Glassbox, question: string): Promise<{ outcome: RunOutcome | null; runId: string; events: RunEvent[]; chatId: string }> {
    const events: RunEvent[] = []
    const unsubscribe = app.subscribe((event) => event.channel === 'run' && events.push(event.event))
    const chat = await app.createChat({})
    const { runId, done } = await app.send({ chatId: chat.id, text: question })
    const outcome = await done
    unsubscribe()
    return { outcome, runId, events: events.filter((event) => event.runId === runId), chatId: chat.id }
  }

  beforeAll(() => {
    project = makeShopProject()
    data = makeTempDir('glassbox-llama-data-')
  })
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    project?.cleanup()
    data?.cleanup()
  })

  describe('tiny-steered, -c 8192 --jinja', () => {
    let server: RunningLlama
    let app: Glassbox
    beforeAll(async () => {
      server = await start('tiny-steered')
      app = await open(server)
    })
    afterAll(() => app?.close())

    it('is discovered from /props and /v1/models: window, tool support and trained length', async () => {
      // On a port that is no preset's: every probe at once, /props answers.
      expect(await listModels(server.url, { kind: 'custom' })).toMatchObject([
        {
          id: server.model,
          contextWindow: 8192,
        contextSource: 'llama.cpp /props n_ctx',
          tools: true,
          maxContextLength: 32768
        }
      ])
      const listed = await app.listModels()
      expect(listed.find((view) => view.baseUrl === server.url)?.models[0]).toMatchObject({ contextWindow: 8192, tools: true })
    })

    it('counts a request exactly: the count equals the prompt tokens the server reports', async () => {
      const messages = [
        { role: 'system' as const, content: 'You are a data analyst. Answer briefly.' },
        { role: 'user' as const, content: 'What is the total revenue?' }
      ]
      const counted = await new ServerTokenCounter().count({ baseUrl: server.url, model: server.model }, messages, [])
      const outcome = await runAgent({
        endpoint: { baseUrl: server.url, model: server.model },
        messages,
        tools: [],
        toolContext: undefined as never,
        signal: new AbortController().signal,
        onEvent: () => undefined,
        runId: 'count',
        maxOutputTokens: 8
      })
      expect(counted).toBeGreaterThan(10)
      expect(outcome.usage?.inputTokens).toBe(counted)
    })

    it('round-trips a tool call: execute_sql on orders(amount), the real figure back to the model, and the memory extraction after each answer succeeds', async () => {
      // The app's own path: extraction goes out as the streamed answer ends (it used to meet a socket the
      // server had just closed: "fetch failed … other side closed", 3 of 3 times).
      const warnings: string[] = []
      const warn = vi.spyOn(console, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)))
      const withMemory = await open(server, { extractMemories: true })
      let toolRun: Awaited<ReturnType<typeof ask>> | null = null
      try {
        for (let attempt = 0; attempt < ATTEMPTS && !toolRun; attempt++) {
          const run = await ask(withMemory, 'I am the CFO. What is the total revenue?')
          if (run.outcome?.toolCalls.some((call) => call.name === 'execute_sql')) toolRun = run
        }
      } finally {
        await withMemory.close() // waits for every extraction
        warn.mockRestore()
      }
      expect(warnings.filter((message) => /extraction failed/.test(message))).toEqual([])
      if (!toolRun?.outcome) throw new Error(`no tool call in ${ATTEMPTS} runs`)
      const call = toolRun.outcome.toolCalls.find((candidate) => candidate.name === 'execute_sql')
      expect(call).toMatchObject({ ok: true, args: { sql_query: 'SELECT SUM(amount) AS revenue FROM orders' } })
      expect(call?.output).toContain(String(REVENUE))
      expect(['answer', 'loop-guard']).toContain(toolRun.outcome.stopReason)
      const run = await app.getRun({ runId: toolRun.runId })
      // Counted by the server before sending, and it fitted.
      expect(run.prompt?.budget?.serverCounted).toBeGreaterThan(0)
      expect(run.usage?.inputTokens).toBeGreaterThan(0)
      expect(app.store.tokenScales.get(server.url, server.model)?.scale).toBeGreaterThanOrEqual(1)
    })
  })

  it('shows the think model’s reasoning apart from its answer', async () => {
    const server = await start('tiny-steered-think')
    const app = await open(server)
    try {
      let text: Awaited<ReturnType<typeof ask>> | null = null
      for (let attempt = 0; attempt < ATTEMPTS && !text; attempt++) {
        const asked = await ask(app, 'What is the total revenue?')
        if (asked.outcome?.stopReason === 'answer' && asked.outcome.toolCalls.length === 0) text = asked
      }
      if (!text?.outcome) throw new Error(`no text answer in ${ATTEMPTS} runs`)
      const reasoning = text.events.map((event) => (event.type === 'reasoning-delta' ? event.text : '')).join('')
      expect(reasoning.trim()).not.toBe('')
      expect(text.outcome.answer).toContain('The total revenue is shown above.')
      expect(text.outcome.answer).not.toContain('<think>')
      const stored = app.store.chats.get(text.chatId).messages.at(-1)
      expect(stored?.reasoning?.trim()).not.toBe('')
    } finally {
      await app.close()
    }
  })

  it('says an answer cut at the output cap was cut (finish_reason "length" → stopReason "length"), ours or the server’s (-n 64)', async () => {
    const server = await start('tiny-random', ['-c', '8192', '--jinja', '-n', '64'])
    const agent = (runId: string, maxOutputTokens: number | undefined, onEvent: (event: RunEvent) => void = () => undefined) =>
      runAgent({
        endpoint: { baseUrl: server.url, model: server.model },
        messages: [{ role: 'user', content: 'Write forever.' }],
        tools: [],
        toolContext: undefined as never,
        signal: new AbortController().signal,
        onEvent,
        runId,
        maxOutputTokens
      })
    // The random model rarely stops by itself: ask again when it did.
    const cut = async (maxOutputTokens: number | undefined): Promise<RunOutcome> => {
      let outcome = await agent('cut', maxOutputTokens)
      for (let attempt = 0; attempt < 3 && outcome.stopReason !== 'length'; attempt++) outcome = await agent('cut', maxOutputTokens)
      return outcome
    }
    // Our cap (the reserved output, sent as max_tokens) below the server's.
    const ours = await cut(16)
    expect(ours).toMatchObject({ stopReason: 'length', usage: { outputTokens: 16 } })
    expect(ours.answer).toMatch(/\(This answer was cut at the output limit of 16 tokens/)
    // No cap of ours: the server's -n 64 cuts.
    const theirs = await cut(undefined)
    expect(theirs).toMatchObject({ stopReason: 'length', usage: { outputTokens: 64 } })

    // Killed mid-answer: the part that arrived is kept and the run says the connection was lost.
    const killed = await agent('killed', undefined, (event) => {
      if (event.type === 'text-delta' && !server.process.killed) server.process.kill('SIGKILL')
    })
    expect(killed.stopReason).toBe('error')
    expect(killed.error).toMatch(/lost mid-answer/)
    expect(killed.answer).not.toBe('')
    await server.stop()
    const down = await agent('down', 16)
    expect(down.error).toMatch(/Could not reach the model server .* Is it running\?/)
  })

  it('refuses before sending when the request cannot fit a -c 2048 window', async () => {
    const server = await start('tiny-steered', ['-c', '2048', '--jinja'])
    const app = await open(server)
    try {
      const { outcome, runId } = await ask(app, 'What is the total revenue?')
      expect(outcome).toBeNull()
      const record = app.store.runs.getRecord(runId)
      expect(record.status).toBe('failed')
      expect(record.error).toMatch(/context window is 2,048 tokens|context window of 2,048 tokens/)
      expect(record.error).toMatch(/Nothing was sent/)
    } finally {
      await app.close()
    }
  })

  it('continues in tool-less mode when the server refuses tools (--no-jinja answers HTTP 500)', async () => {
    const server = await start('tiny-steered', ['-c', '8192', '--no-jinja'])
    const app = await open(server)
    try {
      const { outcome } = await ask(app, 'What is the total revenue?')
      expect(outcome?.toolless).toBe(true)
      expect(outcome?.answer).toMatch(/tools?.*Continuing in tool-less mode/s)
      expect(outcome?.stopReason).not.toBe('error')
    } finally {
      await app.close()
    }
  })
})
