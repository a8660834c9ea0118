import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { loadTestCases, isBroken } from '../eval/test-cases'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type Turn } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from './create-glassbox'

// The sample project a new user gets: its evaluation cases pass when the model runs the right SQL.

const SAMPLE_PROJECT = join(REPO_ROOT, 'resources', 'sample-project')

let server: ScriptedServer | undefined
let glassbox: Glassbox | undefined
const temp = makeTempDir()
afterEach(async () => {
  await glassbox?.close()
  await server?.close()
  temp.cleanup()
})

/** A model that knows each case's answer: it runs the expected SQL, then says it is done. */
function modelFor(sqlByPrompt: Map<string, string>): (request: RecordedRequest) => Turn {
  return (request) => {
    const text = JSON.stringify(request.body)
    if (text.includes('"role":"tool"')) return { text: 'Done: the result is in the table above.' }
    const prompt = [...sqlByPrompt.keys()].find((candidate) => text.includes(JSON.stringify(candidate).slice(1, -1)))
    if (!prompt) return { text: 'I do not know this question.' }
    return { toolCalls: [{ name: 'execute_sql', args: { sql_query: sqlByPrompt.get(prompt) ?? '' } }] }
  }
}

it('passes every evaluation case of the sample project against a model that runs the right SQL', async () => {
  const cases = (await loadTestCases(SAMPLE_PROJECT)).filter((testCase) => !isBroken(testCase))
  expect(cases.length).toBeGreaterThanOrEqual(8)
  const sqlByPrompt = new Map(cases.flatMap((testCase) => (isBroken(testCase) ? [] : [[testCase.prompt, testCase.sql[0]] as const])))
  server = await startScriptedServer({ script: modelFor(sqlByPrompt) })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: SAMPLE_PROJECT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
  const report = await glassbox.runTests({})
  expect(report.cases.filter((testCase) => testCase.status !== 'passed')).toEqual([])
  expect(report.passed).toBe(cases.length)
}, 60_000)
