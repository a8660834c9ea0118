import { afterEach, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { unusedLoopbackPort } from '../../../test/support/free-port'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { CASE_FILES, evaluationProject, twoModelScript } from '../../../test/support/two-model-evaluation'
import { createGlassbox, type Glassbox } from './create-glassbox'

// Several model servers at once: the servers the user added (kind, address, API key) are listed beside the
// presets, probed when nothing is chosen, and an evaluation compares a model on one with a model on another.

let servers: ScriptedServer[] = []
let glassbox: Glassbox | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  await glassbox?.close()
  glassbox = undefined
  await Promise.all(servers.map((server) => server.close()))
  servers = []
  cleanups.splice(0).forEach((cleanup) => cleanup())
})

it('lists the models of every added server, sends each its key, and compares models on two servers in one matrix', async () => {
  const project = evaluationProject()
  const data = makeTempDir('glassbox-servers-')
  cleanups.push(project.cleanup, data.cleanup)
  const llama = await startScriptedServer({ script: twoModelScript, models: [{ id: 'half' }] })
  const ollama = await startScriptedServer({ script: twoModelScript, models: [{ id: 'all' }] })
  servers = [llama, ollama]
  const closedPort = await unusedLoopbackPort()
  glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, watch: false, extractMemories: false, serverPresets: [] })
  await glassbox.updateSettings({
    endpoints: [
      { preset: 'llama.cpp', url: llama.url, apiKey: 'key-of-llama' },
      { preset: 'ollama', url: ollama.origin },
      { preset: 'custom', url: `http://127.0.0.1:${closedPort}/v1` }
    ]
  })

  const listed = await glassbox.listModels()
  expect(listed.find((view) => view.baseUrl === llama.url)).toMatchObject({ running: true, label: 'llama.cpp server (added)', models: [{ id: 'half' }] })
  expect(listed.find((view) => view.baseUrl === ollama.url)).toMatchObject({ running: true, label: 'Ollama (added)', models: [{ id: 'all' }] })
  // The same words as the chat uses for a server that is not there.
  expect(listed.find((view) => view.baseUrl === `http://127.0.0.1:${closedPort}/v1`)?.error).toContain('nothing is listening there (connection refused)')

  // Nothing chosen: the first added server that serves a model answers.
  const chat = await glassbox.createChat({})
  const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'How many customers do we have?' })
  await glassbox.waitForRun(runId)
  expect((await glassbox.getRun({ runId })).endpoint).toBe(llama.url)

  const detail = await glassbox.runEvaluation({ models: [{ endpoint: llama.url, model: 'half' }, { endpoint: ollama.url, model: 'all' }], files: [`tests/${CASE_FILES[0]}`] })
  expect(detail.runs.map((run) => [run.endpoint, run.model, run.passed])).toEqual([
    [llama.url, 'half', 1],
    [ollama.url, 'all', 1]
  ])
  expect(llama.chatRequests().length).toBeGreaterThan(0)
  expect(ollama.chatRequests().length).toBeGreaterThan(0)
  // The key goes to its server only, on every request (model list, window, chat).
  expect(llama.requests.every((request) => request.headers.authorization === 'Bearer key-of-llama')).toBe(true)
  expect(ollama.requests.some((request) => String(request.headers.authorization ?? '').includes('key-of-llama'))).toBe(false)
})
