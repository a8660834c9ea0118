import { afterEach, expect, it } from 'vitest'
import { makeTempDir, NAO_LAYOUT } from '../../../test/support/fixtures'
import { runCli } from '../../../test/support/capture-io'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from './create-glassbox'

// Issue #13 item 2: one context window everywhere — model list, preview, run and `prompt --json` — with
// where it came from, also when only /v1/models says it (vLLM's max_model_len).

let server: ScriptedServer
let glassbox: Glassbox | undefined
let temp: ReturnType<typeof makeTempDir>

afterEach(async () => {
  await glassbox?.close()
  glassbox = undefined
  await server?.close()
  temp?.cleanup()
})

it('uses the window only /v1/models reports in the model list, the preview, the run and prompt --json', async () => {
  temp = makeTempDir()
  server = await startScriptedServer({ models: [{ id: 'served-model', max_model_len: 32768 }], script: [{ text: 'Hi.' }] })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'served-model', watch: false, extractMemories: false })

  const listed = (await glassbox.listModels()).find((view) => view.baseUrl === server.url)
  expect(listed?.models[0].contextWindow).toBe(32768)

  // Even the first preview waits (briefly) for the look-up, so it never shows another window than the picker.
  expect((await glassbox.previewPrompt({ question: 'hi' })).budget).toMatchObject({ contextWindow: 32768, contextSource: 'vLLM /v1/models max_model_len' })

  const chat = await glassbox.createChat({})
  const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'hi' })
  await glassbox.waitForRun(runId)
  const run = await glassbox.getRun({ runId })
  expect(run.prompt?.budget).toMatchObject({ contextWindow: 32768, contextSource: 'vLLM /v1/models max_model_len' })
  await glassbox.close()
  glassbox = undefined

  const cli = await runCli(['prompt', '--project', NAO_LAYOUT, '--data-dir', temp.dir, '--endpoint', server.url, '--model', 'served-model', '--question', 'hi', '--json'])
  expect(cli.stderr).toBe('')
  expect(JSON.parse(cli.stdout).budget).toMatchObject({ contextWindow: 32768, contextSource: 'vLLM /v1/models max_model_len' })
})

it('says where the window came from: llama.cpp /props, the settings, or nobody', async () => {
  temp = makeTempDir()
  server = await startScriptedServer({ llamaProps: { default_generation_settings: { n_ctx: 16384 } } })
  const cli = (...extra: string[]) =>
    runCli(['prompt', '--project', NAO_LAYOUT, '--data-dir', temp.dir, '--endpoint', server.url, '--model', 'scripted-model', '--json', ...extra])
  expect(JSON.parse((await cli()).stdout).budget).toMatchObject({ contextWindow: 16384, contextSource: 'llama.cpp /props n_ctx' })

  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, watch: false })
  await glassbox.updateSettings({ contextWindow: 12000 })
  await glassbox.close()
  glassbox = undefined
  expect(JSON.parse((await cli()).stdout).budget).toMatchObject({ contextWindow: 12000, contextSource: 'settings' })

  await server.close()
  server = await startScriptedServer({})
  const plain = makeTempDir()
  try {
    const output = await runCli(['prompt', '--project', NAO_LAYOUT, '--data-dir', plain.dir, '--endpoint', server.url, '--model', 'scripted-model', '--json'])
    expect(JSON.parse(output.stdout).budget).toMatchObject({ contextWindow: 8192, contextSource: 'default, as the server did not say' })
  } finally {
    plain.cleanup()
  }
})

it('reads the window again for every run and on a refresh of the model list, as a restarted server has it', async () => {
  temp = makeTempDir()
  const props = { default_generation_settings: { n_ctx: 8192 } }
  server = await startScriptedServer({ llamaProps: props, script: [{ text: 'One.' }, { text: 'Two.' }] })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
  expect((await glassbox.previewPrompt({ question: 'hi' })).budget?.contextWindow).toBe(8192)

  // The server restarted on the same port with -c 4096: ↻ in the picker, then the preview agrees with it.
  props.default_generation_settings.n_ctx = 4096
  const listed = (await glassbox.listModels()).find((view) => view.baseUrl === server.url)
  expect(listed?.models[0].contextWindow).toBe(4096)
  expect((await glassbox.previewPrompt({ question: 'hi' })).budget?.contextWindow).toBe(4096)

  // Restarted again, nobody refreshed: the run still fits to what the server has now, and the UI is told
  // its model list is stale.
  props.default_generation_settings.n_ctx = 16384
  let listStale = 0
  glassbox.subscribe((event) => event.channel === 'models-changed' && listStale++)
  const chat = await glassbox.createChat({})
  const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'hi' })
  await glassbox.waitForRun(runId)
  expect((await glassbox.getRun({ runId })).prompt?.budget).toMatchObject({ contextWindow: 16384, contextSource: 'llama.cpp /props n_ctx' })
  expect(listStale).toBe(1)
})

it('says the server’s window changed when it refuses a request for length, and the next preview uses the new one', async () => {
  temp = makeTempDir()
  const props = { default_generation_settings: { n_ctx: 8192 } }
  server = await startScriptedServer({
    llamaProps: props,
    script: () => {
      // Restarted between Glassbox reading its window and the request arriving.
      props.default_generation_settings.n_ctx = 2048
      return { fault: 'context-length' }
    }
  })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
  const chat = await glassbox.createChat({})
  const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'hi' })
  await glassbox.waitForRun(runId)
  const answer = (await glassbox.getChat({ chatId: chat.id })).messages.find((message) => message.role === 'assistant')
  expect(answer?.error).toContain("The server's window changed from 8,192 to 2,048 tokens (llama.cpp /props n_ctx)")
  const next = await glassbox.previewPrompt({ question: 'hi', chatId: chat.id })
  expect(next.budget).toMatchObject({ contextWindow: 2048, contextSource: 'llama.cpp /props n_ctx' })
  // The refused question was never answered: it is not history the next request carries or archives.
  expect(next.budget?.archivedMessages ?? 0).toBe(0)
  expect(next.messages.filter((message) => message.role === 'user')).toHaveLength(1)
})

it('labels the answer with the model the server reported and keeps each round’s own counts', async () => {
  temp = makeTempDir()
  server = await startScriptedServer({
    models: [{ id: 'scripted-model' }],
    script: [
      { toolCalls: [{ name: 'list', args: { path: '.' } }], usage: { prompt_tokens: 3934, completion_tokens: 20 } },
      { text: 'Done.', usage: { prompt_tokens: 4035, completion_tokens: 7 } }
    ]
  })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'asked-for-name', watch: false, extractMemories: false })
  const chat = await glassbox.createChat({})
  const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'hi' })
  await glassbox.waitForRun(runId)
  const answer = (await glassbox.getChat({ chatId: chat.id })).messages.find((message) => message.role === 'assistant')
  expect(answer?.figures).toMatchObject({ model: 'scripted-model', requestedModel: 'asked-for-name', inputTokens: 7969, outputTokens: 27 })
  const run = await glassbox.getRun({ runId })
  expect(run.servedModel).toBe('scripted-model')
  expect(run.requests?.map((request) => request.usage)).toEqual([
    { inputTokens: 3934, outputTokens: 20 },
    { inputTokens: 4035, outputTokens: 7 }
  ])
})
