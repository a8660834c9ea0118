import { afterEach, expect, it } from 'vitest'
import { makeTempDir, NAO_LAYOUT } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer, type Turn } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from './create-glassbox'

// Issue #13: a run keeps every request it sent, round by round, byte for byte as the server received it.

const threeRounds: Turn[] = [
  { toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT COUNT(*) AS orders FROM orders' } }] },
  { toolCalls: [{ name: 'suggest_follow_ups', args: { suggestions: ['By month?'] } }] },
  { text: 'There are 99 orders — “ünïcode” included.' },
  // The memory extraction after the answer: not part of the run.
  { text: '{"user_instructions": null, "user_profile": null}' }
]

let server: ScriptedServer
let glassbox: Glassbox
let temp: ReturnType<typeof makeTempDir>

afterEach(async () => {
  await glassbox?.close()
  await server?.close()
  temp?.cleanup()
})

it('stores each request of a run exactly as the server received it, and only the run’s own', async () => {
  temp = makeTempDir()
  server = await startScriptedServer({ script: threeRounds })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false })
  const chat = await glassbox.createChat({})
  const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'How many orders — “exactly”?' })
  await glassbox.waitForRun(runId)
  await glassbox.close()
  const received = server.chatRequests()
  expect(received.length).toBe(4)

  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, watch: false })
  const run = await glassbox.getRun({ runId })
  expect(run.requests?.map((request) => request.round)).toEqual([1, 2, 3])
  expect(run.requests?.map((request) => request.body)).toEqual(received.slice(0, 3).map((request) => request.rawBody))
  expect(run.requests?.[0].url).toBe(`${server.url}/chat/completions`)
})
