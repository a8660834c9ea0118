import { afterEach, expect, it } from 'vitest'
import type { PushEvent } from '../../shared/api'
import { makeTempDir, NAO_LAYOUT } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from './create-glassbox'

// Issue #13 item 5: a memory learned from a chat is announced, and applies from that chat's next message.

let server: ScriptedServer
let glassbox: Glassbox
let temp: ReturnType<typeof makeTempDir>

afterEach(async () => {
  await glassbox?.close()
  await server?.close()
  temp?.cleanup()
})

it('announces a learned memory and sends it with the same chat’s next message', async () => {
  temp = makeTempDir()
  server = await startScriptedServer({
    script: [
      { text: 'Noted.' },
      { text: '{"user_instructions": [{"content": "Always show revenue in EUR", "supersedes_id": null}], "user_profile": null}' }
    ]
  })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false })
  const learned = new Promise<PushEvent>((resolve) => glassbox.subscribe((event) => event.channel === 'memory-learned' && resolve(event)))
  const chat = await glassbox.createChat({})
  const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'From now on, always show revenue in EUR.' })
  const event = await learned
  expect(event).toMatchObject({ channel: 'memory-learned', chatId: chat.id, memories: [{ content: 'Always show revenue in EUR.', enabled: true }] })

  const run = await glassbox.getRun({ runId })
  expect(run.prompt?.memory.included).toEqual([])
  expect(run.startedAt && event.channel === 'memory-learned' && run.startedAt <= event.memories[0].createdAt).toBe(true)
  const next = await glassbox.previewPrompt({ chatId: chat.id, question: 'Revenue?' })
  expect(next.memory.included.map((memory) => memory.content)).toEqual(['Always show revenue in EUR.'])
})

it('says after each answer how learning from it ended: saved, nothing to remember, or failed with the reason', async () => {
  temp = makeTempDir()
  server = await startScriptedServer({
    script: [
      { text: 'Noted.' },
      { text: '{"user_instructions": [{"content": "Our fiscal year starts in April", "supersedes_id": null}], "user_profile": null}' },
      { text: 'Hello.' },
      { text: '{"user_instructions": [], "user_profile": null}' },
      { text: 'Sure.' },
      { fault: 'http-500' }
    ]
  })
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false })
  const outcomes: PushEvent[] = []
  glassbox.subscribe((event) => event.channel === 'memory-outcome' && outcomes.push(event))
  const chat = await glassbox.createChat({})
  const runIds: string[] = []
  for (const text of ['Remember that our fiscal year starts in April.', 'Hi', 'Thanks']) {
    const { runId } = await glassbox.sendMessage({ chatId: chat.id, text })
    runIds.push(runId)
    await glassbox.waitForRun(runId)
    // The extraction runs after the answer; wait until this answer's outcome is told.
    for (let wait = 0; wait < 200 && outcomes.length < runIds.length; wait++) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(outcomes.map((event) => (event.channel === 'memory-outcome' ? [event.runId, event.outcome.status] : null))).toEqual([
    [runIds[0], 'saved'],
    [runIds[1], 'nothing'],
    [runIds[2], 'failed']
  ])
  const failed = outcomes[2]
  expect(failed.channel === 'memory-outcome' && failed.outcome.status === 'failed' && failed.outcome.reason).toMatch(/500/)
})
