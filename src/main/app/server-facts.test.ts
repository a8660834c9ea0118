import { afterEach, expect, it } from 'vitest'
import { makeTempDir, NAO_LAYOUT } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from './create-glassbox'

// What a llama.cpp server says about itself decides how the run talks to it, before the first request.

let server: ScriptedServer | null = null
let glassbox: Glassbox | null = null
let temp: ReturnType<typeof makeTempDir> | null = null
afterEach(async () => {
  await glassbox?.close()
  await server?.close()
  temp?.cleanup()
  glassbox = server = temp = null
})

it('starts in tool-less mode when /props says the chat template cannot take tools, and caps output at the reserved budget', async () => {
  server = await startScriptedServer({
    llamaProps: { default_generation_settings: { n_ctx: 8192 }, chat_template_caps: { supports_tools: false } },
    script: () => ({ text: 'Fine.' })
  })
  temp = makeTempDir()
  glassbox = await createGlassbox({ dataDir: temp.dir, projectPath: NAO_LAYOUT, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
  const chat = await glassbox.createChat({})
  const { done } = await glassbox.send({ chatId: chat.id, text: 'What is the total revenue?' })
  const outcome = await done
  expect(outcome?.toolless).toBe(true)
  const [request] = server.chatRequests()
  const body = request.body as { tools?: unknown; max_tokens?: number; messages: Array<{ content: string }> }
  expect(body.tools).toBeUndefined()
  expect(body.messages[0].content).toContain('## Tools without native tool calling')
  // 8192 from /props → 2048 reserved for the answer, sent as the cap.
  expect(body.max_tokens).toBe(2048)
})
