import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir, NAO_LAYOUT } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer, type Turn } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from './create-glassbox'
import { unusedLoopbackPort } from '../../../test/support/free-port'

// Issue #13 item 6: one message per failure, with the reason and what to do, and no library links.

let server: ScriptedServer | undefined
let glassbox: Glassbox | undefined
let temp: ReturnType<typeof makeTempDir>

afterEach(async () => {
  await glassbox?.close()
  await server?.close()
  glassbox = server = undefined
  temp?.cleanup()
})

async function failedAnswer(endpoint: string, model: string): Promise<{ text: string; error: string | undefined }> {
  temp = makeTempDir()
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint, model, watch: false, extractMemories: false })
  const chat = await glassbox.createChat({})
  const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'Revenue?' })
  await glassbox.waitForRun(runId)
  const answer = (await glassbox.getChat({ chatId: chat.id })).messages[1]
  expect(answer.status).toBe('failed')
  return { text: answer.text, error: answer.error }
}


describe('a failed run says why and what to do, once', () => {
  it('names the endpoint and how to start a server that is down', async () => {
    const port = await unusedLoopbackPort()
    const { text, error } = await failedAnswer(`http://127.0.0.1:${port}/v1`, 'qwen3:8b')
    expect(text).toBe('')
    expect(error).toContain(`http://127.0.0.1:${port}/v1`)
    expect(error).toMatch(/Start the server .*llama-server/)
    expect(error).not.toMatch(/langchain|openai\.com/i)
  })

  it('lists the models the server has when it does not know the model', async () => {
    server = await startScriptedServer({ models: [{ id: 'qwen3:8b' }, { id: 'llama3.2:3b' }], script: [{ fault: 'model-not-found' }] })
    const { error } = await failedAnswer(server.url, 'qwen3:80b')
    expect(error).toBe(`The model server at ${server.url} does not have the model “qwen3:80b”. It serves: qwen3:8b, llama3.2:3b. Pick one in the model picker.`)
  })

  it('gives the numbers and the setting when the server refuses a request as too long', async () => {
    server = await startScriptedServer({ script: [{ fault: 'context-length' }] })
    const { error } = await failedAnswer(server.url, 'scripted-model')
    expect(error).toMatch(/^The model server refused the request as too long: its context window is 4,096 tokens and this request needed 9,000\./)
    expect(error).toMatch(/Glassbox fitted the request to [\d,]+ of 8,192 tokens \(default, as the server did not say\)/)
    expect(error).toContain('Settings → Context window')
    expect(error).not.toMatch(/langchain|openai\.com/i)
  })

  it('keeps the partial answer and says the connection dropped', async () => {
    const cut: Turn = { text: 'Revenue was 1,672 in', fault: 'disconnect' }
    server = await startScriptedServer({ script: [cut] })
    const { text, error } = await failedAnswer(server.url, 'scripted-model')
    expect(text).toBe('Revenue was 1,672 in')
    expect(error).toMatch(/connection to the model server .* was lost mid-answer/)
  })
})

it('drops the client library’s troubleshooting links from a reason', async () => {
  const { withoutLibraryLinks } = await import('./run-failure')
  const raw =
    'The model server failed (HTTP 500): 500 boom\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langchain/errors/MODEL_NOT_FOUND/\n (see https://platform.openai.com/docs/guides/error-codes)'
  expect(withoutLibraryLinks(raw)).toBe('The model server failed (HTTP 500): 500 boom')
})
