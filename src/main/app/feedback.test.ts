import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { copyNaoLayout, makeTempDir } from '../../../test/support/fixtures'
import { isAgentRequest, latestTurn, startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from './create-glassbox'

// Feedback on the real services: a scripted model answers "How many orders?" with a real execute_sql on the
// nao-layout fixture's DuckDB file; the answer is rated, listed, and saved as a case that `test` then passes.

const ORDERS_SQL = 'SELECT count(*) AS orders FROM orders'

let server: ScriptedServer
let glassbox: Glassbox
let root: string
const cleanups: (() => void)[] = []

beforeEach(async () => {
  const project = copyNaoLayout()
  const data = makeTempDir('glassbox-feedback-')
  cleanups.push(project.cleanup, data.cleanup)
  root = project.dir
  // The fixture's own case would run too; only the saved one matters here.
  rmSync(join(root, 'tests'), { recursive: true })
  server = await startScriptedServer({
    script: (request) => {
      if (!isAgentRequest(request)) return { text: '{}' }
      const turn = latestTurn(request)
      if (/hello/i.test(turn.question)) return { text: 'Hello!' }
      return turn.toolResults.length === 0 ? { toolCalls: [{ name: 'execute_sql', args: { sql_query: ORDERS_SQL } }] } : { text: 'There are 99 orders.' }
    }
  })
  glassbox = await createGlassbox({ dataDir: data.dir, projectPath: root, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
})

afterEach(async () => {
  await glassbox.close()
  await server.close()
  cleanups.splice(0).forEach((cleanup) => cleanup())
})

async function answer(question: string): Promise<{ chatId: string; messageId: string }> {
  const chat = await glassbox.createChat({})
  const { runId } = await glassbox.send({ chatId: chat.id, text: question })
  await glassbox.waitForRun(runId)
  const messages = (await glassbox.getChat({ chatId: chat.id })).messages
  const last = messages[messages.length - 1]
  expect(last.role).toBe('assistant')
  return { chatId: chat.id, messageId: last.id }
}

describe('feedback on answers', () => {
  it('stores 👍 with a note and the facts of the answer; the chat shows it; rating again replaces it', async () => {
    const { chatId, messageId } = await answer('How many orders are there?')
    const rated = await glassbox.setFeedback({ messageId, rating: 'up', note: '  exactly right ' })
    expect(rated).toMatchObject({ rating: 'up', note: 'exactly right', question: 'How many orders are there?', answer: 'There are 99 orders.', model: 'scripted-model', sql: ORDERS_SQL, database: 'duckdb-jaffle-shop', chatId, messageId, testCaseFile: null })
    expect((await glassbox.getChat({ chatId })).messages.at(-1)?.feedback).toEqual({ rating: 'up', note: 'exactly right', testCaseFile: null })

    await glassbox.setFeedback({ messageId, rating: 'down', note: null })
    expect(await glassbox.listFeedback({})).toMatchObject([{ rating: 'down', note: null }])
    expect(await glassbox.listFeedback({ rating: 'up' })).toEqual([])
  })

  it('keeps the feedback when its chat is deleted', async () => {
    const { chatId, messageId } = await answer('How many orders are there?')
    await glassbox.setFeedback({ messageId, rating: 'down', note: 'should exclude returns' })
    await glassbox.deleteChat({ chatId })
    expect(await glassbox.listFeedback({ rating: 'down' })).toMatchObject([{ messageId: null, chatId: null, note: 'should exclude returns', sql: ORDERS_SQL }])
  })

  it('shows the case for review, writes it on save without overwriting, and glassbox test passes it', async () => {
    const { messageId } = await answer('How many orders are there?')
    await glassbox.setFeedback({ messageId, rating: 'up' })
    const draft = await glassbox.previewTestCase({ messageId })
    expect(draft).toEqual({
      file: 'tests/how_many_orders_are_there.yml',
      yaml: `name: how_many_orders_are_there\nprompt: How many orders are there?\nsql: |\n  ${ORDERS_SQL}\ndatabase: duckdb-jaffle-shop\n`,
      name: 'how_many_orders_are_there',
      prompt: 'How many orders are there?',
      sql: ORDERS_SQL,
      database: 'duckdb-jaffle-shop'
    })
    const saved = await glassbox.saveTestCase({ messageId })
    expect(saved.file).toBe('tests/how_many_orders_are_there.yml')
    expect(readFileSync(join(root, saved.file), 'utf8')).toBe(draft.yaml)
    expect(saved.feedback).toMatchObject({ rating: 'up', testCaseFile: saved.file, correctedSql: null })
    expect((await glassbox.saveTestCase({ messageId })).file).toBe('tests/how_many_orders_are_there-2.yml')

    const { runs } = await glassbox.runEvaluation({ files: ['tests/how_many_orders_are_there.yml'] })
    expect(runs.map(({ passed, failed, errored }) => ({ passed, failed, errored }))).toEqual([{ passed: 1, failed: 0, errored: 0 }])
  })

  it('👎 saves the SQL it should have been as the case, and records the correction', async () => {
    const { messageId } = await answer('How many completed orders are there?')
    await glassbox.setFeedback({ messageId, rating: 'down', note: 'counts every status' })
    const corrected = "SELECT count(*) FROM orders WHERE status = 'completed'"
    expect((await glassbox.previewTestCase({ messageId, sql: corrected })).yaml).toContain(`sql: |\n  ${corrected}\n`)
    const saved = await glassbox.saveTestCase({ messageId, sql: corrected })
    expect(saved.feedback).toMatchObject({ rating: 'down', note: 'counts every status', correctedSql: corrected, testCaseFile: 'tests/how_many_completed_orders_are_there.yml' })
  })

  it('refuses to rate a question, and to save an answer that ran no SQL without a correction', async () => {
    const { chatId, messageId } = await answer('Hello there')
    const question = (await glassbox.getChat({ chatId })).messages[0].id
    await expect(glassbox.setFeedback({ messageId: question, rating: 'up' })).rejects.toThrow('Only answers can be rated.')
    await expect(glassbox.previewTestCase({ messageId })).rejects.toThrow(/ran no SQL/)
    await expect(glassbox.setFeedback({ messageId: 'no-such-message', rating: 'up' })).rejects.toThrow('no message with id no-such-message')
  })
})
