import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { evaluationProject, startTwoModelServer } from '../../../test/support/two-model-evaluation'
import type { EvaluationProgress } from '../../shared/api'
import { writeFilesProject } from '../engines/files/data-files.testing'
import { createGlassbox, type Glassbox } from './create-glassbox'
import { EvaluationError } from './evaluation-error'

let server: ScriptedServer | undefined
let glassbox: Glassbox | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  await glassbox?.close()
  await server?.close()
  glassbox = server = undefined
  cleanups.splice(0).forEach((cleanup) => cleanup())
})

async function openWithHangingModel(): Promise<Glassbox> {
  const project = evaluationProject()
  const data = makeTempDir('glassbox-eval-app-')
  cleanups.push(project.cleanup, data.cleanup)
  server = await startScriptedServer({ script: () => ({ fault: 'hang' }), hangLimitMs: 10_000 })
  return createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
}

it('cancels an evaluation: the running case stops at once, nothing further runs, and it is stored as cancelled', async () => {
  glassbox = await openWithHangingModel()
  const seen: EvaluationProgress[] = []
  glassbox.subscribe((event) => {
    if (event.channel === 'evaluation-progress') {
      seen.push(event.progress)
      const evaluationId = event.progress.evaluationId
      // Cancel once the model is working on the first case.
      const cancelWhenSent = (): void => {
        if (server?.chatRequests().length) void glassbox?.cancelEvaluation({ evaluationId })
        else setTimeout(cancelWhenSent, 20)
      }
      if (seen.length === 1) cancelWhenSent()
    }
  })
  const started = performance.now()
  const detail = await glassbox.runEvaluation({})
  expect(performance.now() - started).toBeLessThan(5000)
  expect(detail.status).toBe('cancelled')
  expect(detail.runs[0].cases).toEqual([])
  expect(seen.map((progress) => progress.caseIndex)).toEqual([1])
  expect(server?.chatRequests()).toHaveLength(1)
  expect((await glassbox.listEvaluations({}))[0].status).toBe('cancelled')
})

it('refuses a second evaluation while one runs', async () => {
  glassbox = await openWithHangingModel()
  const first = glassbox.runEvaluation({ files: ['tests/01_customer_count.yml'], timeoutSeconds: 1 })
  await expect(glassbox.runEvaluation({})).rejects.toThrow('An evaluation is already running: wait for it or cancel it first.')
  expect((await first).runs[0].cases).toHaveLength(1)
})

it('stops a case that runs past its time limit and records it as a timeout', async () => {
  glassbox = await openWithHangingModel()
  const detail = await glassbox.runEvaluation({ files: ['tests/01_customer_count.yml'], timeoutSeconds: 1 })
  expect(detail.runs[0].cases.map((item) => [item.name, item.outcome])).toEqual([['customer_count', 'timeout']])
  expect(detail.matrix.cases.map((row) => row.name)).toEqual(['customer_count', 'total_revenue', 'coffee_products', 'return_rate'])
})

it('says which model is missing instead of running without one', async () => {
  const project = evaluationProject()
  const data = makeTempDir('glassbox-eval-app-')
  cleanups.push(project.cleanup, data.cleanup)
  glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, serverPresets: [{ kind: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:9/v1' }], watch: false, extractMemories: false })
  await expect(glassbox.runEvaluation({})).rejects.toThrow(EvaluationError)
  expect(await glassbox.listEvaluations({})).toEqual([])
})

it('stores per model the system prompt its runs were sent, with its hash', async () => {
  const project = evaluationProject()
  const data = makeTempDir('glassbox-eval-app-')
  cleanups.push(project.cleanup, data.cleanup)
  server = await startTwoModelServer()
  glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: server.url, model: 'all', watch: false, extractMemories: false })
  const detail = await glassbox.runEvaluation({ files: ['tests/01_customer_count.yml'] })
  const run = detail.runs[0]
  const sent = await glassbox.getRun({ runId: run.cases[0].runId ?? '' })
  expect(run.systemPrompt).toBe(sent.prompt?.system)
  expect(run.systemPromptHash).toMatch(/^[0-9a-f]{16}$/)
  expect(run.cases[0]).toMatchObject({ outcome: 'passed', rounds: 1, inputTokens: 200, outputTokens: 20, firstTokenMs: expect.any(Number) })
})

it('runs expected SQL on the project’s data files when it declares no database file (a CSV-only project)', async () => {
  const project = makeTempDir('glassbox-eval-csv-')
  const data = makeTempDir('glassbox-eval-app-')
  cleanups.push(project.cleanup, data.cleanup)
  await writeFilesProject(project.dir)
  mkdirSync(join(project.dir, 'tests'))
  writeFileSync(join(project.dir, 'tests', 'north.yml'), 'name: north revenue\nprompt: What did the north region sell?\nsql: SELECT SUM(amount) AS revenue FROM sales WHERE region = \'north\'\n')
  // The model answers with the right SQL first, then a sentence.
  server = await startScriptedServer({
    script: (request) =>
      JSON.stringify(request.body).includes('"role":"tool"')
        ? { text: 'The north region sold 40.5.' }
        : { toolCalls: [{ name: 'execute_sql', args: { sql_query: "SELECT SUM(amount) AS revenue FROM sales WHERE region = 'north'" } }] }
  })
  glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
  const detail = await glassbox.runEvaluation({})
  expect(detail.runs[0].cases.map((item) => [item.file, item.outcome])).toEqual([['tests/north.yml', 'passed']])
})
