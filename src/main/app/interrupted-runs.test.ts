import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { copyNaoLayout, makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { INTERRUPTED_MESSAGE } from '../store/runs-repo'
import { openStore } from '../store'
import { createGlassbox, type Glassbox } from './create-glassbox'

// #11: a run whose process is killed mid-way (a real SIGKILL of a real `glassbox ask`) is marked
// interrupted when Glassbox next starts, instead of staying "running"/"streaming" for ever.

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

it('marks a run killed mid-stream as interrupted on the next start, and its answer as failed', async () => {
  const project = copyNaoLayout()
  const data = makeTempDir()
  const server: ScriptedServer = await startScriptedServer({ script: [{ fault: 'hang' }], hangLimitMs: 20_000 })
  cleanups.push(project.cleanup, data.cleanup, () => server.close())
  const child = spawn(
    process.execPath,
    [join(REPO_ROOT, 'bin/glassbox.js'), 'ask', '--project', project.dir, '--data-dir', data.dir, '--endpoint', server.url, '--model', 'scripted-model', '--question', 'How many orders?'],
    { stdio: 'ignore' }
  )
  const exited = new Promise((resolve) => child.on('exit', resolve))
  await until(() => server.chatRequests().length === 1, 30_000)
  child.kill('SIGKILL')
  await exited

  const before = openStore(data.dir)
  const running = before.db.prepare(`SELECT status FROM runs`).all()
  before.close()
  expect(running).toEqual([{ status: 'running' }])

  // A one-shot prompt preview shows no runs and leaves them to the next start that does.
  const preview = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, watch: false, readForPromptOnly: true, extractMemories: false })
  await preview.close()
  const afterPreview = openStore(data.dir)
  expect(afterPreview.db.prepare(`SELECT status FROM runs`).all()).toEqual([{ status: 'running' }])
  afterPreview.close()

  const glassbox: Glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, watch: false, extractMemories: false })
  cleanups.push(() => glassbox.close())
  const [chat] = await glassbox.listChats({})
  const answer = (await glassbox.getChat({ chatId: chat.id })).messages.at(-1)
  expect(answer).toMatchObject({ role: 'assistant', status: 'failed', text: INTERRUPTED_MESSAGE })
  const run = await glassbox.getRun({ runId: answer?.runId ?? '' })
  expect(run).toMatchObject({ status: 'failed', stopReason: 'interrupted' })
})

it('leaves a run that is still going on in this process alone', async () => {
  const project = copyNaoLayout()
  const data = makeTempDir()
  const server: ScriptedServer = await startScriptedServer({ script: [{ fault: 'hang' }], hangLimitMs: 20_000 })
  cleanups.push(project.cleanup, data.cleanup, () => server.close())
  const first = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
  cleanups.push(() => first.close())
  const chat = await first.createChat({})
  const { runId } = await first.sendMessage({ chatId: chat.id, text: 'How many orders?' })
  await until(() => server.chatRequests().length === 1, 10_000)

  const second = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, watch: false, extractMemories: false })
  cleanups.push(() => second.close())
  expect((await second.getRun({ runId })).status).toBe('running')
  await first.stopRun({ runId })
})
