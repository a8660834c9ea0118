import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DuckDBInstance } from '@duckdb/node-api'
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { PushEvent } from '../../shared/api'
import type { RunEvent } from '../../shared/events'
import { copyNaoLayout, makeTempDir, NAO_LAYOUT, REPO_ROOT } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer, type Turn } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from './create-glassbox'

// The composition root end to end: real store in a temp folder, the nao-layout fixture, a scripted model
// server on loopback, the same calls the UI makes.

async function trueRevenue(): Promise<number> {
  const instance = await DuckDBInstance.create(join(NAO_LAYOUT, 'jaffle_shop.duckdb'), { access_mode: 'READ_ONLY' })
  const connection = await instance.connect()
  const reader = await connection.runAndReadAll('SELECT SUM(amount) AS total FROM orders')
  const total = Number(reader.getRowObjects()[0].total)
  connection.closeSync()
  instance.closeSync()
  return total
}

const revenueScript: Turn[] = [
  { toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT SUM(amount) AS total_revenue FROM orders' } }] },
  { text: 'The total revenue is **1734**.' }
]

describe('createGlassbox', () => {
  let temp: ReturnType<typeof makeTempDir>
  let server: ScriptedServer
  let glassbox: Glassbox

  beforeEach(async () => {
    temp = makeTempDir()
  })
  afterEach(async () => {
    await glassbox?.close()
    await server?.close()
    temp.cleanup()
  })

  async function open(script: Turn[]): Promise<void> {
    server = await startScriptedServer({ script })
    glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
  }

  it('writes nothing to the store when the same project is opened again and its prompt previewed', async () => {
    const first = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, watch: false, extractMemories: false, serverPresets: [] })
    await first.preview({ question: 'Total revenue?', attachments: [], resolveModel: false })
    await first.close()
    glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, watch: false, extractMemories: false, serverPresets: [] })
    await glassbox.preview({ question: 'Total revenue?', attachments: [], resolveModel: false })
    glassbox.store.tokenCounts.save()
    expect(glassbox.store.db.prepare('SELECT total_changes() AS changes').get()).toEqual({ changes: 0 })
  })

  it('answers a question with real SQL on the project database and stores the run with its prompt', async () => {
    await open(revenueScript)
    const events: RunEvent[] = []
    glassbox.subscribe((event: PushEvent) => {
      if (event.channel === 'run') events.push(event.event)
    })
    const chat = await glassbox.createChat({})
    const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'What is the total revenue?' })
    await glassbox.waitForRun(runId)

    const toolResult = server.chatRequests()[1].body
    expect(JSON.stringify(toolResult)).toContain(String(await trueRevenue()))
    expect(events.map((event) => event.type)).toContain('tool-end')
    expect(events.at(-1)).toMatchObject({ type: 'end', stopReason: 'answer' })

    const stored = await glassbox.getChat({ chatId: chat.id })
    expect(stored.messages.map((message) => [message.role, message.status])).toEqual([
      ['user', 'done'],
      ['assistant', 'done']
    ])
    expect(stored.messages[1].toolCalls?.[0]).toMatchObject({ name: 'execute_sql', ok: true })
    expect(stored.title).toBe('What is the total revenue?')
    const run = await glassbox.getRun({ runId })
    expect(run.status).toBe('done')
    expect(run.prompt?.system).toContain('## SQL Query Rules')
    // What the inspector shows is what was sent.
    const sent = server.chatRequests()[0].body as { messages: { role: string; content: unknown }[] }
    expect(sent.messages[0]).toEqual({ role: 'system', content: run.prompt?.system })
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: run.prompt?.user })
  })

  it('keeps the ten most recently opened projects, newest first, in the store', async () => {
    await open([])
    const folders = Array.from({ length: 11 }, (_, index) => {
      const dir = join(temp.dir, `project-${index}`)
      mkdirSync(dir)
      return realpathSync(dir)
    })
    for (const folder of folders) await glassbox.openProject({ path: folder })
    await glassbox.openProject({ path: folders[3] })
    const expected = [folders[3], ...folders.slice(4).reverse(), folders[2], folders[1]]
    expect(await glassbox.listRecentProjects()).toEqual(expected)
    await glassbox.close()
    // Another process on the same store (the CLI, web mode) sees the same list.
    glassbox = await createGlassbox({ dataDir: temp.dir, watch: false, extractMemories: false })
    expect(await glassbox.listRecentProjects()).toEqual(expected)
  })

  it('previews the prompt the next question would send, with memory from the store', async () => {
    await open([])
    await glassbox.addMemory({ category: 'global_rule', content: 'Always show revenue in EUR.' })
    const preview = await glassbox.previewPrompt({ question: 'a < b & "c"' })
    expect(preview.user).toBe('a < b & "c"')
    expect(preview.system).toContain('Always show revenue in EUR.')
    expect(preview.memory.included.map((memory) => memory.content)).toEqual(['Always show revenue in EUR.'])
    expect(preview.budget?.parts.map((part) => part.name)).toEqual(['system', 'tools', 'history', 'user', 'output'])
  })

  it('turns a failing model server into a message in the chat and a failed run', async () => {
    await open([{ fault: 'http-500' }])
    const chat = await glassbox.createChat({})
    const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'Revenue?' })
    await glassbox.waitForRun(runId)
    const stored = await glassbox.getChat({ chatId: chat.id })
    expect(stored.messages[1].status).toBe('failed')
    // Said once, beside the answer (which keeps only what the model wrote: nothing here).
    expect(stored.messages[1].text).toBe('')
    expect(stored.messages[1].error).toMatch(/The model server failed \(HTTP 500\)/)
    expect((await glassbox.getRun({ runId })).status).toBe('failed')
  })

  it('regenerates the last answer, keeping the earlier one as a version out of the model history', async () => {
    await open([{ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Third answer.' }])
    const chat = await glassbox.createChat({})
    const first = (await glassbox.sendMessage({ chatId: chat.id, text: 'Hello?' })).runId
    await glassbox.waitForRun(first)
    const second = (await glassbox.regenerate({ chatId: chat.id })).runId
    await glassbox.waitForRun(second)
    const stored = await glassbox.getChat({ chatId: chat.id })
    expect(stored.messages.map((message) => message.text)).toEqual(['Hello?', 'Second answer.'])
    expect(stored.versions?.map((version) => version.messages.map((message) => message.text))).toEqual([['Hello?', 'First answer.']])
    expect(stored.versions?.[0].turnId).toBe(stored.messages[0].turnId)
    expect(stored.versions?.[0].messages[1].runId).toBe(first)
    expect(stored.messages[1].figures).toMatchObject({ model: expect.any(String), totalMs: expect.any(Number), firstTokenMs: expect.any(Number) })
    // The earlier answer is never sent again: the regenerated request has only the question.
    const regenerated = JSON.stringify(server.chatRequests()[1].body)
    expect(regenerated).not.toContain('First answer.')
    // Editing the question keeps both earlier versions.
    await glassbox.waitForRun((await glassbox.editAndResend({ chatId: chat.id, messageId: stored.messages[0].id, text: 'Hi?' })).runId)
    const edited = await glassbox.getChat({ chatId: chat.id })
    expect(edited.messages.map((message) => message.text)).toEqual(['Hi?', 'Third answer.'])
    expect(edited.versions?.map((version) => version.messages[1].text)).toEqual(['First answer.', 'Second answer.'])
    expect((await glassbox.renameChat({ chatId: chat.id, title: 'Greetings' })).title).toBe('Greetings')
  })

  it('runs the evaluation cases through stored test-mode runs', async () => {
    await open(revenueScript)
    const [report] = (await glassbox.runEvaluation({})).runs
    expect(report.cases.map((testCase) => [testCase.name, testCase.outcome])).toEqual([['total_revenue', 'passed']])
    const run = await glassbox.getRun({ runId: report.cases[0].runId ?? '' })
    expect(run.testMode).toBe(true)
    expect(run.prompt?.system).not.toContain('clarification')
    // The case's chat belongs to the Tests panel, not the chat list (#13).
    expect(await glassbox.listChats({})).toEqual([])
  })

  it('gives a forked chat the answer it came from as an earlier result, and the selection as focus', async () => {
    await open([{ text: 'Revenue grew 12% in Q2. In summary, growth came from new stores.' }, { text: 'Focused answer.' }])
    const chat = await glassbox.createChat({})
    await glassbox.waitForRun((await glassbox.sendMessage({ chatId: chat.id, text: 'How did revenue grow?' })).runId)
    const answer = (await glassbox.getChat({ chatId: chat.id })).messages[1]
    const fork = await glassbox.forkChat({ chatId: chat.id, messageId: answer.id, selection: 'growth came from new stores' })
    await glassbox.waitForRun((await glassbox.sendMessage({ chatId: fork.id, text: 'Which stores?' })).runId)
    const sent = JSON.stringify(server.chatRequests()[1].body)
    expect(sent).toContain('## Selection Context')
    expect(sent).toContain('resultsMeta')
    expect(sent).toContain('In summary, growth came from new stores.')
  })

  it('sends an attached image to a model with vision as an image part', async () => {
    const project = copyNaoLayout()
    try {
      writeFileSync(join(project.dir, 'docs', 'chart.png'), Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'))
      server = await startScriptedServer({
        script: [{ text: 'A chart.' }],
        ollamaShow: { model_info: { 'llama.context_length': 32768 }, parameters: 'num_ctx 16384', capabilities: ['completion', 'tools', 'vision'] }
      })
      glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: project.dir, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
      const chat = await glassbox.createChat({})
      await glassbox.waitForRun((await glassbox.sendMessage({ chatId: chat.id, text: 'What is this?', attachments: ['docs/chart.png'] })).runId)
      const body = server.chatRequests()[0].body
      const last = JSON.parse(JSON.stringify(body)).messages.at(-1)
      expect(last.content.map((part: { type: string }) => part.type)).toEqual(['text', 'image_url'])
      expect(last.content[1].image_url.url).toMatch(/^data:image\/png;base64,/)
    } finally {
      await glassbox.close()
      project.cleanup()
    }
  })

  it('refuses an attachment outside the project', async () => {
    await open([])
    const chat = await glassbox.createChat({})
    await expect(glassbox.sendMessage({ chatId: chat.id, text: 'Read this', attachments: ['/etc/passwd'] })).rejects.toThrow(/outside the project/)
  })

  it('opens the sample project on a first start, and the project used last afterwards', async () => {
    const sample = join(REPO_ROOT, 'resources', 'sample-project')
    const start = () => createGlassbox({ dataDir: temp.dir, reopenLastProject: true, defaultProjectPath: sample, watch: false })
    glassbox = await start()
    expect((await glassbox.getProject())?.root).toBe(realpathSync(sample))
    await glassbox.openProject({ path: NAO_LAYOUT })
    await glassbox.close()
    glassbox = await start()
    expect((await glassbox.getProject())?.root).toBe(realpathSync(NAO_LAYOUT))
  })

  it('scales its token estimates up when the server reports that the prompt took more tokens', async () => {
    server = await startScriptedServer({
      script: [{ text: 'Hi.', usage: { prompt_tokens: 100_000, completion_tokens: 2 } }],
      ollamaShow: { model_info: { 'llama.context_length': 131072 }, parameters: 'num_ctx 65536' }
    })
    glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
    const before = await glassbox.previewPrompt({ question: 'Hello?' })
    const chat = await glassbox.createChat({})
    await glassbox.waitForRun((await glassbox.sendMessage({ chatId: chat.id, text: 'Hello?' })).runId)
    const after = await glassbox.previewPrompt({ question: 'Hello?' })
    const system = (preview: typeof before) => preview.budget?.parts.find((part) => part.name === 'system')?.tokens ?? 0
    expect(system(after)).toBeGreaterThanOrEqual(2.9 * system(before))
  })

  it('previews in a chat exactly the prompt its next run stores: memory, history, question', async () => {
    server = await startScriptedServer({ script: [{ text: 'First answer.' }, { text: 'Second answer.' }] })
    const fixed = new Date('2026-03-01T10:00:00Z')
    glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false, now: () => fixed })
    await glassbox.addMemory({ category: 'global_rule', content: 'Always show revenue in EUR.' })
    const chat = await glassbox.createChat({})
    await glassbox.waitForRun((await glassbox.sendMessage({ chatId: chat.id, text: 'Hello?' })).runId)
    const preview = await glassbox.previewPrompt({ chatId: chat.id, question: 'And revenue?' })
    const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'And revenue?' })
    await glassbox.waitForRun(runId)
    const stored = (await glassbox.getRun({ runId })).prompt
    expect(preview.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(preview.system).toContain('Always show revenue in EUR.')
    expect({ system: stored?.system, user: stored?.user, messages: stored?.messages }).toEqual({ system: preview.system, user: preview.user, messages: preview.messages })
  })

  it('still previews a prompt that does not fit, saying why it would not be sent', async () => {
    await open([])
    await glassbox.updateSettings({ contextWindow: 1024 })
    const preview = await glassbox.previewPrompt({ question: 'Hello?' })
    expect(preview.system).toContain('# Instructions')
    expect(preview.budget?.contextWindow).toBe(1024)
    expect(preview.budget?.used).toBeGreaterThan(1024)
    expect(preview.diagnostics.map((diagnostic) => diagnostic.problem).join('\n')).toMatch(/Nothing was sent/)
  })

  it('learns memories after the answer, with the configured memory model', async () => {
    const extracted = { user_instructions: [{ content: 'Always show revenue in EUR', supersedes_id: null }], user_profile: null }
    server = await startScriptedServer({
      script: (request) => {
        const body = JSON.parse(JSON.stringify(request.body))
        return body.stream ? { text: 'Noted: revenue in EUR from now on.' } : { text: JSON.stringify(extracted) }
      }
    })
    glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false })
    await glassbox.updateSettings({ endpoint: server.url, model: 'scripted-model', memoryModel: 'tiny-model' })
    const chat = await glassbox.createChat({})
    await glassbox.waitForRun((await glassbox.sendMessage({ chatId: chat.id, text: 'From now on, always show revenue in EUR.' })).runId)
    await expect.poll(async () => (await glassbox.listMemories({})).map((memory) => memory.content), { timeout: 10_000 }).toEqual([
      'Always show revenue in EUR.'
    ])
    const models = server.chatRequests().map((request) => JSON.parse(JSON.stringify(request.body)).model)
    expect(models[0]).toBe('scripted-model')
    expect(models.slice(1)).toContain('tiny-model')
  })
})
