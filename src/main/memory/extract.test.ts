import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer, type Turn } from '../../../test/support/scripted-openai-server'
import type { Store } from '../store'
import { openTempStore } from '../store/test-store'
import { extractMemories, scheduleMemoryExtraction, type ExtractionLogger, type ExtractionRequest } from './extract'
import { EXTRACTION_INSTRUCTIONS } from './extraction-prompt'
import { seedMemories } from './seed-memories'

let store: Store
let cleanup: () => void
let server: ScriptedServer | null = null
let projectId: number
let chatId: string
let warnings: { message: string; details: Record<string, unknown> }[]
const logger: ExtractionLogger = { warn: (message, details) => warnings.push({ message, details }) }

beforeEach(() => {
  ;({ store, cleanup } = openTempStore())
  projectId = store.projects.ensure('/data/shop').id
  chatId = store.chats.create(projectId).id
  warnings = []
})
afterEach(async () => {
  await server?.close()
  server = null
  cleanup()
})

async function serve(...turns: Turn[]): Promise<ExtractionRequest> {
  server = await startScriptedServer({ script: turns })
  return { store, projectId, chatId, endpoint: { baseUrl: server.url, model: 'scripted-model' }, logger, timeoutMs: 5000 }
}

const json = (value: unknown): Turn => ({ text: JSON.stringify(value) })

function say(role: 'user' | 'assistant', text: string): void {
  store.chats.addMessage({ chatId, role, text })
}

function requestBody(): Record<string, unknown> {
  const body = server?.chatRequests()[0]?.body
  if (typeof body !== 'object' || body === null) throw new Error('no request recorded')
  return Object.fromEntries(Object.entries(body))
}

describe('extractMemories', () => {
  it('saves normalised instructions and facts, and retires the memory a new one supersedes, at once', async () => {
    const old = store.memories.add(projectId, { category: 'global_rule', content: 'Always show revenue in USD.' })
    say('user', 'From now on   always show revenue in EUR. I lead the growth team, by the way.')
    const request = await serve(
      json({
        user_instructions: [{ content: ' Always show revenue\nin EUR ', supersedes_id: old.id }],
        user_profile: [{ content: 'The user leads the growth team', supersedes_id: null }]
      })
    )

    const result = await extractMemories(request)

    expect(result.status).toBe('saved')
    expect(result.status === 'saved' ? result.superseded : null).toEqual([old.id])
    const memories = store.memories.list(projectId)
    expect(memories.map((memory) => [memory.category, memory.content, memory.chatId, memory.supersededBy])).toEqual([
      ['personal_fact', 'The user leads the growth team.', chatId, null],
      ['global_rule', 'Always show revenue in EUR.', chatId, null],
      ['global_rule', 'Always show revenue in USD.', null, memories[1].id]
    ])
  })

  it('asks for structured output and sends the instructions, saved memories with ids and the conversation', async () => {
    const saved = store.memories.add(projectId, { category: 'personal_fact', content: 'The user works in Berlin.' })
    say('user', 'Show weekly orders.')
    say('assistant', 'Orders: ' + 'x'.repeat(5000))
    say('user', 'Thanks! ' + 'y'.repeat(5000))
    const request = await serve(json({ user_instructions: null, user_profile: null }))

    expect(await extractMemories(request)).toMatchObject({ status: 'nothing' })

    const body = requestBody()
    expect(body.stream).not.toBe(true)
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'memories', strict: true } })
    expect(body.messages).toMatchObject([
      { role: 'system', content: EXTRACTION_INSTRUCTIONS },
      { role: 'user', content: expect.stringContaining(`- [id ${saved.id}] (profile) The user works in Berlin.`) }
    ])
    const input = JSON.stringify(body.messages)
    expect(input).toContain('Assistant: Orders: xxx')
    expect(input).toMatch(/characters cut/)
    // The last user message keeps up to 2,000 characters, the others 1,250.
    expect(input.match(/y/g)?.length ?? 0).toBeGreaterThan(1900)
    expect(input.match(/x/g)?.length ?? 0).toBeLessThan(1300)
  })

  it('logs and drops output that is not JSON, writing nothing', async () => {
    say('user', 'Always use ISO dates.')
    // Not JSON under the structured format means the server ignored it: asked again in plain text.
    const prose = { text: 'Sure! I will remember that you like ISO dates.' }
    const request = await serve(prose, prose)
    expect(await extractMemories(request)).toEqual({
      status: 'invalid',
      error: 'no JSON object in the output',
      raw: 'Sure! I will remember that you like ISO dates.'
    })
    expect(store.memories.list(projectId)).toEqual([])
    expect(warnings).toEqual([
      {
        message: 'extraction output dropped: no JSON object in the output',
        details: { chatId, raw: 'Sure! I will remember that you like ISO dates.' }
      }
    ])
  })

  it('logs and drops JSON of the wrong shape, writing nothing', async () => {
    say('user', 'Always use ISO dates.')
    const request = await serve(json({ user_instructions: [{ content: 'Always use ISO dates.' }], user_profile: 'none' }))
    const result = await extractMemories(request)
    expect(result).toMatchObject({ status: 'invalid', error: expect.stringMatching(/^JSON of the wrong shape: user_profile/) })
    expect(store.memories.list(projectId)).toEqual([])
  })

  it('saves an item whose supersedes_id names no shown memory as new, and retires nothing', async () => {
    const kept = store.memories.add(projectId, { category: 'global_rule', content: 'Always show revenue in USD.' })
    say('user', 'From now on use EUR.')
    const request = await serve(json({ user_instructions: [{ content: 'Always use EUR.', supersedes_id: 9999 }], user_profile: null }))
    const result = await extractMemories(request)
    expect(result).toMatchObject({ status: 'saved', superseded: [], ignoredSupersedes: [9999] })
    expect(store.memories.get(projectId, kept.id).supersededBy).toBeNull()
    expect(store.memories.list(projectId)).toHaveLength(2)
    expect(warnings[0].details).toMatchObject({ ignoredSupersedes: [9999] })
  })

  it('skips empty and already-saved content; nothing left means nothing saved', async () => {
    store.memories.add(projectId, { category: 'personal_fact', content: 'The user works in Berlin.' })
    say('user', 'I work in Berlin.')
    const request = await serve(
      json({ user_instructions: [{ content: '   ', supersedes_id: null }], user_profile: [{ content: 'the user works in  Berlin', supersedes_id: null }] })
    )
    expect(await extractMemories(request)).toMatchObject({ status: 'nothing' })
    expect(store.memories.list(projectId)).toHaveLength(1)
  })

  it('asks a server that ignores the structured format again in plain text, then reads fenced JSON', async () => {
    say('user', 'I am the CFO.')
    const fenced = {
      text: 'Here is what I found:\n```json\n{"user_instructions": null, "user_profile": [{"content": "The user is the CFO.", "supersedes_id": null}]}\n```'
    }
    const request = await serve(fenced, fenced, fenced)
    request.endpoint = { ...request.endpoint, model: 'ignores-formats' }
    expect(await extractMemories(request)).toMatchObject({ status: 'saved', inserted: [{ content: 'The user is the CFO.' }] })
    say('user', 'Still the CFO.')
    expect(await extractMemories(request)).toMatchObject({ status: 'nothing' })
    // Remembered per endpoint: the third request went out in plain text straight away.
    const formats = server?.chatRequests().map((recorded) => JSON.stringify(recorded.body).includes('response_format'))
    expect(formats).toEqual([true, false, false])
  })

  it('falls back to plain JSON when the server refuses the structured format with HTTP 500 (llama-cpp-python)', async () => {
    say('user', 'I am the CFO.')
    const answer = '{"user_instructions": null, "user_profile": [{"content": "The user is the CFO.", "supersedes_id": null}]}'
    server = await startScriptedServer({
      script: (request) => {
        const body = request.body as { response_format?: unknown }
        return body.response_format ? { fault: 'http-500', text: "Exception: 'json_schema' is not a valid response format" } : { text: answer }
      }
    })
    const request: ExtractionRequest = { store, projectId, chatId, endpoint: { baseUrl: server.url, model: 'refuses-with-500' }, logger, timeoutMs: 5000 }
    expect(await extractMemories(request)).toMatchObject({ status: 'saved', inserted: [{ content: 'The user is the CFO.' }] })
    const formats = server.chatRequests().map((recorded) => JSON.stringify(recorded.body).includes('response_format'))
    expect(formats).toEqual([true, false])
  })

  it('fails (and keeps asking with the format next time) when the plain request fails too', async () => {
    say('user', 'I am the CFO.')
    const request = await serve({ fault: 'http-500' }, { fault: 'http-500' })
    request.endpoint = { ...request.endpoint, model: 'down-for-good' }
    expect(await extractMemories(request)).toMatchObject({ status: 'failed', error: expect.stringMatching(/500/) })
    expect(server?.chatRequests()).toHaveLength(2)
  })

  it('writes nothing when the insert fails half way', async () => {
    store.db.exec(`CREATE TRIGGER refuse_boom BEFORE INSERT ON memories WHEN NEW.content LIKE '%boom%'
                   BEGIN SELECT RAISE(ABORT, 'refused'); END`)
    say('user', 'Always EUR. Never boom.')
    const request = await serve(
      json({ user_instructions: [{ content: 'Always EUR.', supersedes_id: null }, { content: 'Never boom.', supersedes_id: null }], user_profile: null })
    )
    expect(await extractMemories(request)).toEqual({ status: 'failed', error: 'refused' })
    expect(store.memories.list(projectId)).toEqual([])
  })

  it('shows the model only the newest 100 of 10,000 saved memories, and supersedes only among those', async () => {
    seedMemories(store, projectId, 10_000)
    const [newest] = store.memories.recentSelectable(projectId, 1)
    say('user', 'From now on round to whole numbers.')
    const request = await serve(
      json({
        user_instructions: [
          { content: 'Always round to whole numbers.', supersedes_id: newest.id },
          { content: 'Never show decimals.', supersedes_id: 1 }
        ],
        user_profile: null
      })
    )
    const result = await extractMemories(request)
    expect(result).toMatchObject({ status: 'saved', superseded: [newest.id], ignoredSupersedes: [1] })
    const shownLines = JSON.stringify(requestBody().messages).match(/- \[id \d+\]/g) ?? []
    expect(shownLines).toHaveLength(100)
    expect(store.memories.get(projectId, 1).supersededBy).toBeNull()
  })

  it('reports a failing server as a result, not an exception', async () => {
    say('user', 'Always EUR.')
    const request = await serve({ fault: 'http-500', text: 'model crashed' }, { fault: 'http-500', text: 'model crashed' })
    expect(await extractMemories(request)).toMatchObject({ status: 'failed', error: expect.stringMatching(/model crashed/) })
  })

  it('does not call the model when memory is off for the project', async () => {
    store.projects.setMemoryEnabled(projectId, false)
    say('user', 'Always EUR.')
    const request = await serve(json({ user_instructions: null, user_profile: null }))
    expect(await extractMemories(request)).toEqual({ status: 'skipped', reason: 'memory is off for this project' })
    expect(server?.chatRequests()).toEqual([])
  })
})

describe('scheduleMemoryExtraction', () => {
  it('returns at once and never rejects, even with no server at all', async () => {
    say('user', 'Always EUR.')
    const pending = scheduleMemoryExtraction({
      store,
      projectId,
      chatId,
      endpoint: { baseUrl: 'http://127.0.0.1:9/v1', model: 'none' },
      logger,
      timeoutMs: 2000
    })
    expect(await pending).toMatchObject({ status: 'failed' })
  })

  it('runs in the background: the caller goes on while the model is still thinking', async () => {
    say('user', 'Always EUR.')
    const request = await serve({
      text: JSON.stringify({ user_instructions: [{ content: 'Always EUR.', supersedes_id: null }], user_profile: null }),
      firstTokenDelayMs: 200
    })
    const pending = scheduleMemoryExtraction(request)
    let settled = false
    void pending.finally(() => (settled = true))
    // The caller is back while the model has not answered yet (its first token comes 200 ms later).
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(settled).toBe(false)
    expect(store.memories.list(projectId)).toEqual([])
    expect(await pending).toMatchObject({ status: 'saved' })
  })

  it('runs one extraction per project at a time, so the second sees the first one’s memory', async () => {
    say('user', 'Always EUR.')
    const same = json({ user_instructions: [{ content: 'Always EUR.', supersedes_id: null }], user_profile: null })
    const request = await serve(same, same)
    const [first, second] = await Promise.all([scheduleMemoryExtraction(request), scheduleMemoryExtraction(request)])
    expect(first.status).toBe('saved')
    expect(second.status).toBe('nothing')
    expect(store.memories.list(projectId)).toHaveLength(1)
  })
})
