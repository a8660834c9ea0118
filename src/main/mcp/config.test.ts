import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { fingerprintOf } from '../trust'
import { readMcpConfig } from './config'

// nao's mcp.json shape, read as untrusted input: every problem is a sentence, nothing is thrown.

describe('readMcpConfig', () => {
  let temp: ReturnType<typeof makeTempDir>
  beforeEach(() => {
    temp = makeTempDir()
    mkdirSync(join(temp.dir, 'agent/mcps'), { recursive: true })
    writeFileSync(join(temp.dir, 'nao_config.yaml'), "notion:\n  api_key: {{ env('NOTION_API_KEY') }}\nmcp:\n  json_file_path: ./agent/mcps/mcp.json\n")
  })
  afterEach(() => temp.cleanup())
  const write = (value: unknown): void => writeFileSync(join(temp.dir, 'agent/mcps/mcp.json'), typeof value === 'string' ? value : JSON.stringify(value))

  it("reads nao's example: command, args and the variables its env names, for the trust request", () => {
    write({ mcpServers: { metabase: { command: 'npx', args: ['-y', '@getnao/metabase-mcp-server@latest'], env: { METABASE_URL: '${METABASE_URL}', METABASE_API_KEY: '${METABASE_API_KEY}' } } } })
    const config = readMcpConfig(temp.dir)
    expect(config.problems).toEqual([])
    expect(config.file).toBe('agent/mcps/mcp.json')
    expect(config.servers[0].trust).toEqual({
      kind: 'process',
      name: 'metabase',
      command: 'npx',
      args: ['-y', '@getnao/metabase-mcp-server@latest'],
      env: ['METABASE_API_KEY=${METABASE_API_KEY}', 'METABASE_URL=${METABASE_URL}'],
      variables: ['METABASE_API_KEY', 'METABASE_URL']
    })
  })

  it('a changed argument or environment value is another fingerprint; a renamed key order is not', () => {
    write({ mcpServers: { a: { command: 'node', args: ['server.js'], env: { X: '1', Y: '2' } } } })
    const before = fingerprintOf(readMcpConfig(temp.dir).servers[0].trust)
    write({ mcpServers: { a: { command: 'node', args: ['server.js'], env: { Y: '2', X: '1' } } } })
    expect(fingerprintOf(readMcpConfig(temp.dir).servers[0].trust)).toBe(before)
    write({ mcpServers: { a: { command: 'node', args: ['server.js'], env: { X: '1', Y: '2', NODE_OPTIONS: '--require ./evil.js' } } } })
    expect(fingerprintOf(readMcpConfig(temp.dir).servers[0].trust)).not.toBe(before)
    write({ mcpServers: { a: { command: 'node', args: ['other.js'], env: { X: '1', Y: '2' } } } })
    expect(fingerprintOf(readMcpConfig(temp.dir).servers[0].trust)).not.toBe(before)
  })

  it('takes a streamable HTTP server on this machine only', () => {
    write({ mcpServers: { near: { url: 'http://127.0.0.1:3001/mcp' }, far: { url: 'https://tools.example.com/mcp' }, chosen: { url: 'http://${HOST}/mcp' } } })
    const config = readMcpConfig(temp.dir)
    expect(config.servers.map((server) => server.name)).toEqual(['near'])
    expect(config.problems).toEqual([
      'agent/mcps/mcp.json: server "far" skipped: a streamable HTTP server must be on this machine (http://127.0.0.1, ::1 or localhost), not https://tools.example.com/mcp',
      'agent/mcps/mcp.json: server "chosen" skipped: a streamable HTTP server must be on this machine (http://127.0.0.1, ::1 or localhost), not http://${HOST}/mcp'
    ])
  })

  it('says what is wrong with a bad file, a bad entry or a bad name, and keeps the good servers', () => {
    write('{ not json')
    expect(readMcpConfig(temp.dir).problems[0]).toMatch(/^agent\/mcps\/mcp.json is not valid JSON: /)
    write({ servers: {} })
    expect(readMcpConfig(temp.dir).problems).toEqual(['agent/mcps/mcp.json: expected {"mcpServers": {"name": {"command": …, "args": […], "env": {…}}}}'])
    write({ mcpServers: { good: { command: 'node' }, 'bad name!': { command: 'node' }, empty: {} } })
    const config = readMcpConfig(temp.dir)
    expect(config.servers.map((server) => server.name)).toEqual(['good'])
    expect(config.problems).toEqual([
      'agent/mcps/mcp.json: server "bad name!" skipped: a name is 1 to 30 letters, digits, _ or - (it prefixes its tools\' names)',
      'agent/mcps/mcp.json: server "empty" skipped: it needs "command" (with optional "args" and "env") or "url"'
    ])
  })

  it('refuses an mcp.json outside the project, through a symlink too', () => {
    const outside = makeTempDir()
    try {
      writeFileSync(join(outside.dir, 'mcp.json'), JSON.stringify({ mcpServers: { evil: { command: 'sh' } } }))
      symlinkSync(join(outside.dir, 'mcp.json'), join(temp.dir, 'agent/mcps/mcp.json'))
      const config = readMcpConfig(temp.dir)
      expect(config.servers).toEqual([])
      expect(config.problems[0]).toContain('./agent/mcps/mcp.json cannot be read:')
      expect(config.problems[0]).toContain('outside the project')
    } finally {
      outside.cleanup()
    }
  })

  it('a project without `mcp:` has no servers and no problem', () => {
    writeFileSync(join(temp.dir, 'nao_config.yaml'), 'project_name: x\n')
    expect(readMcpConfig(temp.dir)).toEqual({ file: null, servers: [], problems: [] })
  })
})
