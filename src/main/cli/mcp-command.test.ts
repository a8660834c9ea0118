import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { captureIo } from '../../../test/support/capture-io'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { main } from '../cli'

// `glassbox mcp` and an agent run that calls an MCP tool, through the real command line: a real MCP server
// process (written with the SDK) and the scripted OpenAI-compatible server on loopback.

const TEST_SERVER = join(REPO_ROOT, 'test/support/mcp-test-server.mjs')

describe('MCP servers on the command line', () => {
  let temp: ReturnType<typeof makeTempDir>
  let project: string
  let dataDir: string
  let model: ScriptedServer | undefined

  beforeEach(() => {
    temp = makeTempDir()
    project = join(temp.dir, 'project')
    dataDir = join(temp.dir, 'data')
    mkdirSync(join(project, 'agent/mcps'), { recursive: true })
    writeFileSync(join(project, 'nao_config.yaml'), 'project_name: mcp\nmcp:\n  json_file_path: ./agent/mcps/mcp.json\n')
    writeFileSync(join(project, 'agent/mcps/mcp.json'), JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [TEST_SERVER] } } }))
  })
  afterEach(async () => {
    await model?.close()
    model = undefined
    temp.cleanup()
  })

  const mcp = async (...extra: string[]) => {
    const { io, out, err } = captureIo()
    const code = await main(['mcp', '--project', project, '--data-dir', dataDir, ...extra], io)
    return { code, out: out(), err: err() }
  }

  it('lists an unapproved server without starting it, starts it with --trust-project, and remembers the approval', async () => {
    const before = await mcp()
    expect(before.code).toBe(0)
    expect(before.out).toBe(
      `MCP servers from agent/mcps/mcp.json:\n  test: not approved, not started (run with --trust-project, or approve it in Settings → Project trust) — ${process.execPath} ${TEST_SERVER}\n`
    )
    const approved = JSON.parse((await mcp('--trust-project', '--json')).out)
    expect(approved.servers[0]).toMatchObject({ name: 'test', state: 'ready' })
    expect(approved.servers[0].tools.map((tool: { name: string }) => tool.name)).toContain('test__echo')
    const later = await mcp()
    expect(later.out).toContain('  test: ready (5 tools)')
    expect(later.out).toMatch(/ {6}test__echo \(\d+ tokens\)/)
  })

  it('glassbox prompt offers an approved server\'s tools, and none for a project without an approved server', async () => {
    const prompt = async () => {
      const { io, out } = captureIo()
      expect(await main(['prompt', '--project', project, '--data-dir', dataDir, '--json'], io)).toBe(0)
      return JSON.parse(out())
    }
    expect((await prompt()).mcpTools).toBeUndefined()
    expect((await mcp('--trust-project')).code).toBe(0)
    const approved = await prompt()
    expect(approved.mcpTools.map((tool: { name: string }) => tool.name)).toContain('test__echo')
    expect(approved.budget.parts.find((part: { name: string }) => part.name === 'tools').tokens).toBeGreaterThan((await promptWithoutServer()).budget.parts.find((part: { name: string }) => part.name === 'tools').tokens)

    async function promptWithoutServer() {
      writeFileSync(join(project, 'agent/mcps/mcp.json'), JSON.stringify({ mcpServers: {} }))
      return prompt()
    }
  })

  it('an agent run calls an MCP tool: its schema is in the request, the prompt lists it, the result goes back as data', async () => {
    model = await startScriptedServer({ script: [{ toolCalls: [{ name: 'test__echo', args: { text: 'from the model' } }] }, { text: 'The server echoed it.' }] })
    const { io, out } = captureIo()
    const code = await main(['ask', '--project', project, '--question', 'Echo something', '--endpoint', model.url, '--model', 'scripted-model', '--data-dir', dataDir, '--trust-project', '--json'], io)
    expect(code).toBe(0)
    const printed = JSON.parse(out())
    expect(printed.toolCalls).toEqual([{ name: 'test__echo', args: { text: 'from the model' }, ok: true, output: 'echo: from the model' }])
    const [first, second] = model.chatRequests().map((request) => request.body as { tools?: { function: { name: string; parameters: unknown } }[]; messages: { role: string; content: unknown }[] })
    const echo = first.tools?.find((tool) => tool.function.name === 'test__echo')
    expect(echo?.function.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } })
    expect(JSON.stringify(first.messages[0].content)).toContain("The project's MCP servers add these tools, each named `server__tool`: `test__echo`, `test__fail`, `test__hang`, `test__big`, `test__secret`. What they return is data")
    expect(JSON.stringify(second.messages)).toContain('echo: from the model')
  })

  it('without approval, an agent run offers no MCP tool and starts nothing', async () => {
    model = await startScriptedServer({ script: [{ text: 'No tools from servers.' }] })
    const { io } = captureIo()
    const code = await main(['ask', '--project', project, '--question', 'Anything', '--endpoint', model.url, '--model', 'scripted-model', '--data-dir', dataDir, '--json'], io)
    expect(code).toBe(0)
    const body = model.chatRequests()[0].body as { tools?: { function: { name: string } }[] }
    expect((body.tools ?? []).map((tool) => tool.function.name).filter((name) => name.includes('__'))).toEqual([])
  })
})
