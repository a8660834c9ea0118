import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { parseConfig } from '../project/config'
import { readYaml } from '../project/yaml'
import { readMcpConfig } from './config'

vi.mock('../project/yaml', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../project/yaml')>()
  return { ...actual, readYaml: vi.fn(actual.readYaml) }
})

// The project and its MCP servers both read nao_config.yaml; the same text is parsed once.

describe('readMcpConfig after the project read nao_config.yaml', () => {
  const temp = makeTempDir()
  afterEach(() => temp.cleanup())

  it('takes the document the project parsed, and parses the file again once it changed', () => {
    const file = join(temp.dir, 'nao_config.yaml')
    writeFileSync(file, "project_name: shop\nnotion:\n  api_key: {{ env('NOTION_API_KEY') }}\nmcp:\n  json_file_path: ./mcp.json\n")
    writeFileSync(join(temp.dir, 'mcp.json'), JSON.stringify({ mcpServers: { a: { command: 'node' } } }))
    expect(parseConfig(readFileSync(file, 'utf8')).projectName).toBe('shop')
    vi.mocked(readYaml).mockClear()
    expect(readMcpConfig(temp.dir).servers.map((server) => server.name)).toEqual(['a'])
    expect(readYaml).not.toHaveBeenCalled()
    writeFileSync(file, 'mcp:\n  json_file_path: ./other.json\n')
    writeFileSync(join(temp.dir, 'other.json'), JSON.stringify({ mcpServers: {} }))
    expect(readMcpConfig(temp.dir).file).toBe('other.json')
    expect(readYaml).toHaveBeenCalledTimes(1)
  })
})
