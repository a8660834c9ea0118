import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { DEFAULT_TOOL_LIMITS } from '../agent/tools'
import { makeToolContext } from '../agent/tools/tool-context.testing'
import { openTempStore } from '../store/test-store'
import { TrustGate } from '../trust'
import { McpHub } from './hub'
import type { McpStatus } from '../../shared/trust'

// Real MCP server processes: one written with the SDK for these tests (test/support/mcp-test-server.mjs),
// and the official filesystem server. Nothing starts before the user approves exactly its command line.

const TEST_SERVER = join(REPO_ROOT, 'test/support/mcp-test-server.mjs')
const FILESYSTEM_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js')

describe('MCP servers from the project', () => {
  let temp: ReturnType<typeof makeTempDir>
  let stored: ReturnType<typeof openTempStore>
  let hub: McpHub | null = null
  let marker: string

  beforeEach(() => {
    temp = makeTempDir()
    stored = openTempStore()
    marker = join(temp.dir, 'started.pid')
    process.env.GLASSBOX_MCP_TEST_TOKEN = 'token-from-the-user-environment'
    writeFileSync(join(temp.dir, 'nao_config.yaml'), 'project_name: mcp\nmcp:\n  json_file_path: ./agent/mcps/mcp.json\n')
    mkdirSync(join(temp.dir, 'agent/mcps'), { recursive: true })
    writeServers({ test: testServer() })
  })
  afterEach(async () => {
    await hub?.close()
    hub = null
    delete process.env.GLASSBOX_MCP_TEST_TOKEN
    stored.cleanup()
    temp.cleanup()
  })

  function testServer(extraArgs: string[] = []): Record<string, unknown> {
    return { command: process.execPath, args: [TEST_SERVER, ...extraArgs], env: { TEST_TOKEN: '${GLASSBOX_MCP_TEST_TOKEN}', MCP_TEST_MARKER: marker } }
  }
  function writeServers(servers: Record<string, unknown>): void {
    writeFileSync(join(temp.dir, 'agent/mcps/mcp.json'), JSON.stringify({ mcpServers: servers }, null, 2))
  }
  function open(options: ConstructorParameters<typeof McpHub>[2] = {}): { hub: McpHub; gate: TrustGate } {
    const gate = new TrustGate(temp.dir, stored.store.trust)
    hub = new McpHub(temp.dir, gate, { callTimeoutMs: 1_500, ...options })
    return { hub, gate }
  }
  const server = (status: McpStatus, name: string) => {
    const found = status.servers.find((entry) => entry.name === name)
    if (!found) throw new Error(`no server ${name} in ${JSON.stringify(status)}`)
    return found
  }
  async function approveAndLoad(): Promise<McpHub> {
    const { hub: first, gate } = open()
    const status = await first.load()
    const spec = server(status, 'test')
    expect(spec.state).toBe('not-approved')
    const request = gate.refusedRequests()[0] ?? (await import('./config')).readMcpConfig(temp.dir).servers[0].trust
    gate.approve(request)
    await first.restart('test')
    return first
  }

  it('lists an unapproved server with its exact command line and never starts it', async () => {
    const { hub } = open()
    const status = await hub.load()
    expect(status.configFile).toBe('agent/mcps/mcp.json')
    const test = server(status, 'test')
    expect(test.state).toBe('not-approved')
    expect(test.commandLine).toBe(`${process.execPath} ${TEST_SERVER}`)
    expect(hub.tools()).toEqual([])
    expect(existsSync(marker)).toBe(false)
  })

  it('for a one-shot prompt, reads the config only once a server may start: approved before, or approvable now', async () => {
    // Unreadable as a config: read, it would be a problem in the status.
    writeFileSync(join(temp.dir, 'agent/mcps/mcp.json'), '{ not json')
    expect(await open({ onlyWhenOneMayStart: true }).hub.load()).toEqual({ configFile: null, servers: [], problems: [] })
    await hub?.close()
    expect((await open().hub.load()).problems).not.toEqual([])
    await hub?.close()

    writeServers({ test: testServer() })
    const askingGate = new TrustGate(temp.dir, stored.store.trust, { ask: async () => false })
    hub = new McpHub(temp.dir, askingGate, { onlyWhenOneMayStart: true })
    expect(server(await hub.load(), 'test').state).toBe('not-approved')
    await hub.close()

    const { readMcpConfig } = await import('./config')
    stored.store.trust.approve(temp.dir, readMcpConfig(temp.dir).servers[0].trust)
    const started = await open({ onlyWhenOneMayStart: true }).hub.load()
    expect(server(started, 'test').state).toBe('ready')
    expect(existsSync(marker)).toBe(true)
  })

  it('once approved, starts it, prefixes its tools with the server name, and gives it the user variables mcp.json names', async () => {
    const hub = await approveAndLoad()
    const test = server(hub.status(), 'test')
    expect(test.state).toBe('ready')
    expect(test.tools.map((tool) => tool.name).sort()).toEqual(['test__big', 'test__echo', 'test__fail', 'test__hang', 'test__secret'])
    expect(hub.status().problems).toEqual([expect.stringMatching(/^test: tool huge left out: its input schema is [\d,]+ characters \(at most 16,000\)$/)])
    const echo = test.tools.find((tool) => tool.name === 'test__echo')
    // The 100,000 bound guards the server's input; a grammar-constrained model server could not take it.
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] })
    expect(JSON.stringify(echo?.inputSchema)).not.toContain('maxLength')
    expect(echo?.tokens).toBeGreaterThan(10)
    expect(existsSync(marker)).toBe(true)
    const ctx = await makeToolContext(temp.dir)
    try {
      const tool = (name: string) => hub.tools().find((candidate) => candidate.name === name)!
      expect(await tool('test__echo').invoke({ text: 'hello' }, ctx)).toMatchObject({ ok: true, output: 'echo: hello', data: { server: 'test', tool: 'echo' } })
      expect((await tool('test__secret').invoke({}, ctx)).output).toBe('token=token-from-the-user-environment')
      expect(await tool('test__fail').invoke({}, ctx)).toMatchObject({ ok: false, output: 'Error from test: the tool failed on purpose' })
      const hang = await tool('test__hang').invoke({}, ctx)
      expect(hang).toMatchObject({ ok: false })
      expect(hang.output).toContain('test did not answer within 2 s (hang)')
      const big = await tool('test__big').invoke({}, ctx)
      expect(big.ok).toBe(true)
      expect(big.output.length).toBeLessThan(DEFAULT_TOOL_LIMITS.maxOutputChars + 200)
      expect(big.output).toContain(`… ${5 * 1024 * 1024 - DEFAULT_TOOL_LIMITS.maxOutputChars} more characters (output capped at ${DEFAULT_TOOL_LIMITS.maxOutputChars})`)
      // A hung call does not take the server down: it still answers.
      expect((await tool('test__echo').invoke({ text: 'again' }, ctx)).output).toBe('echo: again')
    } finally {
      ctx.close()
    }
  })

  it('a changed command asks again: the earlier approval does not start it', async () => {
    const hub = await approveAndLoad()
    writeServers({ test: testServer(['--changed']) })
    const status = await hub.load()
    expect(server(status, 'test').state).toBe('not-approved')
    expect(hub.tools()).toEqual([])
  })

  it('reloads by itself when mcp.json changes, and stops the servers when closed', async () => {
    const { hub: watching, gate } = open({ watch: true, debounceMs: 50 })
    writeServers({ test: testServer() })
    const { readMcpConfig } = await import('./config')
    gate.approve(readMcpConfig(temp.dir).servers[0].trust)
    expect(server(await watching.load(), 'test').state).toBe('ready')
    const pid = Number(readFileSync(marker, 'utf8'))
    const changed = new Promise<McpStatus>((resolve) => {
      const poll = setInterval(() => {
        const status = watching.status()
        if (status.servers.some((entry) => entry.name === 'other')) {
          clearInterval(poll)
          resolve(status)
        }
      }, 20)
    })
    writeServers({ test: testServer(), other: { command: process.execPath, args: ['-e', '0'] } })
    const status = await changed
    expect(server(status, 'other').state).toBe('not-approved')
    expect(server(status, 'test').state).toBe('ready')
    await watching.close()
    hub = null
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false)
  })

  it('a downloader that cannot reach the registry (offline npx) says so in the state', async () => {
    const bin = join(temp.dir, 'bin')
    mkdirSync(bin)
    const npx = join(bin, 'npx')
    writeFileSync(npx, '#!/bin/sh\necho "npm error code ENOTFOUND" >&2\necho "npm error network request to https://registry.npmjs.org failed" >&2\nexit 1\n')
    chmodSync(npx, 0o755)
    writeServers({ metabase: { command: npx, args: ['-y', '@getnao/metabase-mcp-server@latest'] } })
    const { hub, gate } = open()
    const { readMcpConfig } = await import('./config')
    gate.approve(readMcpConfig(temp.dir).servers[0].trust)
    const metabase = server(await hub.load(), 'metabase')
    expect(metabase.state).toBe('failed')
    expect(metabase.error).toContain('npx could not download @getnao/metabase-mcp-server@latest (no network: Glassbox runs offline)')
    expect(metabase.stderrTail).toContain('ENOTFOUND')
  })

  it('runs the official filesystem server and reads a file of the folder it is given', async () => {
    writeFileSync(join(temp.dir, 'notes.txt'), 'a note for the filesystem server')
    writeServers({ files: { command: process.execPath, args: [FILESYSTEM_SERVER, temp.dir] } })
    const { hub, gate } = open()
    const { readMcpConfig } = await import('./config')
    gate.approve(readMcpConfig(temp.dir).servers[0].trust)
    const files = server(await hub.load(), 'files')
    expect(files.state, files.error ?? '').toBe('ready')
    const names = files.tools.map((tool) => tool.name)
    expect(names).toContain('files__list_directory')
    const ctx = await makeToolContext(temp.dir)
    try {
      const read = hub.tools().find((tool) => tool.name === 'files__read_text_file') ?? hub.tools().find((tool) => tool.name === 'files__read_file')
      const result = await read!.invoke({ path: join(temp.dir, 'notes.txt') }, ctx)
      expect(result.output).toContain('a note for the filesystem server')
    } finally {
      ctx.close()
    }
  })
})

describe('a streamable HTTP MCP server on this machine', () => {
  it('is reached only after approval, and its tools work like a stdio server\'s', async () => {
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js')
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js')
    const { z } = await import('zod')
    let requests = 0
    const http = createServer((req, res) => {
      requests += 1
      // Stateless: one server and transport per request, as the SDK documents for this mode.
      const server = new McpServer({ name: 'http-test', version: '1.0.0' })
      server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }))
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
      res.on('close', () => void transport.close())
      void server.connect(transport).then(() => transport.handleRequest(req, res))
    })
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    const address = http.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    const temp = makeTempDir()
    const stored = openTempStore()
    const hub = new McpHub(temp.dir, new TrustGate(temp.dir, stored.store.trust), {})
    try {
      mkdirSync(join(temp.dir, 'agent/mcps'), { recursive: true })
      writeFileSync(join(temp.dir, 'nao_config.yaml'), 'mcp:\n  json_file_path: agent/mcps/mcp.json\n')
      writeFileSync(join(temp.dir, 'agent/mcps/mcp.json'), JSON.stringify({ mcpServers: { calc: { url: `http://127.0.0.1:${address.port}/mcp` } } }))
      expect((await hub.load()).servers[0].state).toBe('not-approved')
      expect(requests).toBe(0)
      const { readMcpConfig } = await import('./config')
      stored.store.trust.approve(temp.dir, readMcpConfig(temp.dir).servers[0].trust)
      const status = await hub.restart('calc')
      expect(status.servers[0]).toMatchObject({ state: 'ready', commandLine: `http://127.0.0.1:${address.port}/mcp` })
      const ctx = await makeToolContext(temp.dir)
      try {
        expect(await hub.tools()[0].invoke({ a: 2, b: 40 }, ctx)).toMatchObject({ ok: true, output: '42' })
      } finally {
        ctx.close()
      }
    } finally {
      await hub.close()
      await new Promise((resolve) => http.close(resolve))
      stored.cleanup()
      temp.cleanup()
    }
  })
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
