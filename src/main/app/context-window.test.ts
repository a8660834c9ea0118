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
    expect(JSON.parse(output.stdout).budget).toMatchObject({ contextWindow: 8192, contextSource: 'default — server did not say' })
  } finally {
    plain.cleanup()
  }
})
