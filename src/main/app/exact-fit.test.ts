import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir, NAO_LAYOUT } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from './create-glassbox'

// Exact token counts from a server that can count (llama.cpp's /apply-template + /tokenize, scripted here
// with a tokenizer that needs far more tokens than our estimate), through the real services.

/** About twice what the BPE estimate says for English and JSON. */
const greedyTokenizer = (text: string): number => Math.ceil(text.length / 2)

describe('exact token counts from the server', () => {
  let temp: ReturnType<typeof makeTempDir>
  let server: ScriptedServer
  let glassbox: Glassbox | null = null

  beforeEach(async () => {
    temp = makeTempDir()
    server = await startScriptedServer({ tokenizer: greedyTokenizer, script: () => ({ text: 'Fine.' }) })
  })
  afterEach(async () => {
    await glassbox?.close()
    glassbox = null
    await server.close()
    temp.cleanup()
  })

  const open = async (): Promise<Glassbox> =>
    (glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false }))

  /** The requests that count or ask (discovery's /props, /api/show… left out). */
  const counting = (): string[] =>
    server.requests.map((request) => request.path).filter((path) => ['/apply-template', '/tokenize', '/v1/chat/completions'].includes(path))

  async function ask(app: Glassbox, text: string): Promise<string> {
    const chat = await app.createChat({})
    const { runId, done } = await app.send({ chatId: chat.id, text })
    await done
    return runId
  }

  it('counts the request exactly before sending and keeps the learned scale in the store for the next process', async () => {
    let app = await open()
    // The greedy tokenizer doubles every count: give the request room to fit at twice its estimate.
    await app.updateSettings({ contextWindow: 32_768 })
    const before = (await app.preview({ question: 'What is the total revenue?' })).budget
    const runId = await ask(app, 'What is the total revenue?')
    const run = await app.getRun({ runId })
    expect(run.stopReason).toBe('answer')
    const counted = run.prompt?.budget?.serverCounted
    expect(counted).toBeGreaterThan(before?.used ?? 0)
    expect(counting()).toEqual(['/apply-template', '/tokenize', '/v1/chat/completions'])
    // The count is of the very request that was sent.
    const sent = server.chatRequests()[0].body as { messages: unknown; tools: unknown }
    expect(counted).toBe(greedyTokenizer(JSON.stringify([sent.messages, sent.tools])))
    const stored = app.store.tokenScales.get(server.url, 'scripted-model')
    expect(stored?.scale).toBeGreaterThan(1.3)
    await app.close()

    // A new process (the CLI) starts from what was learned: its estimate is corrected without asking.
    app = await open()
    const after = (await app.preview({ question: 'What is the total revenue?' })).budget
    expect(after?.used ?? 0).toBeGreaterThan((before?.used ?? 0) * 1.3)
  })

  it('fits the request again when the exact count does not fit, trimming history as the budget does', async () => {
    const app = await open()
    const chat = await app.createChat({})
    for (let turn = 0; turn < 12; turn++) {
      app.store.chats.addMessage({ chatId: chat.id, role: 'user', text: `Question ${turn}: ${'how did revenue develop per region and month? '.repeat(12)}` })
      app.store.chats.addMessage({ chatId: chat.id, role: 'assistant', text: `Answer ${turn}: ${'revenue grew steadily in every region. '.repeat(12)}` })
    }
    const estimate = (await app.preview({ chatId: chat.id, question: 'And now?' })).budget
    if (!estimate) throw new Error('no budget')
    // Fits by our estimate (with the reserved output and margin), not by the server's count.
    const bare = (await app.preview({ question: 'And now?' })).budget
    if (!bare) throw new Error('no budget')
    // Room for the request without history at the server's count (two to three times the estimate), and for the
    // whole request by our estimate (with the 5% margin), but not for the whole request at the server's count.
    const window = Math.ceil(((bare.used - bare.reservedOutput) * 3 + bare.reservedOutput) / 0.95)
    expect(estimate.used / 0.95).toBeLessThan(window)
    await app.updateSettings({ contextWindow: window })
    expect((await app.preview({ chatId: chat.id, question: 'And now?' })).budget?.trimmed).toEqual([])

    const { runId, done } = await app.send({ chatId: chat.id, text: 'And now?' })
    await done
    const run = await app.getRun({ runId })
    expect(app.store.runs.getRecord(runId).error ?? null).toBeNull()
    expect(run.stopReason).toBe('answer')
    const budget = run.prompt?.budget
    expect(budget?.trimmed.map((trim) => trim.part)).toContain('history')
    expect((budget?.serverCounted ?? Infinity) + (budget?.reservedOutput ?? 0)).toBeLessThanOrEqual(window)
    expect(server.chatRequests()).toHaveLength(1)
  })

  it('refuses before sending when even the trimmed request does not fit by the exact count', async () => {
    const app = await open()
    const estimate = (await app.preview({ question: 'What is the total revenue?' })).budget
    if (!estimate) throw new Error('no budget')
    await app.updateSettings({ contextWindow: Math.ceil((estimate.used + 100) * 1.1) })
    const runId = await ask(app, 'What is the total revenue?')
    const record = app.store.runs.getRecord(runId)
    expect(record.status).toBe('failed')
    expect(record.error).toMatch(/^The (model server counted [\d,]+ tokens for this request|request needs at least)/)
    expect(record.error).toMatch(/Nothing was sent/)
    expect(server.chatRequests()).toHaveLength(0)
  })

  it('does not ask a server that cannot count again', async () => {
    await server.close()
    server = await startScriptedServer({ script: () => ({ text: 'Fine.' }) })
    const app = await open()
    await ask(app, 'one')
    await ask(app, 'two')
    expect(counting()).toEqual(['/apply-template', '/v1/chat/completions', '/v1/chat/completions'])
  })
})
