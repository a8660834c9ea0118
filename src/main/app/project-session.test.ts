import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { createGlassbox, type Glassbox } from './create-glassbox'
import type { PushEvent } from '../../shared/api'

// What the API says a project asks beyond its folder, and approving and revoking it through the API.

describe('project trust through the API', () => {
  let temp: ReturnType<typeof makeTempDir>
  let glassbox: Glassbox
  const pushed: PushEvent[] = []

  beforeEach(async () => {
    temp = makeTempDir()
    const project = join(temp.dir, 'project')
    mkdirSync(join(project, 'agent/mcps'), { recursive: true })
    writeFileSync(
      join(project, 'nao_config.yaml'),
      [
        'databases:',
        '  - {name: warehouse, type: postgres, host: db.internal, port: 5432, database: analytics, user: analyst, password: "{{ env(\'PG_PASSWORD\') }}"}',
        'mcp:',
        '  json_file_path: ./agent/mcps/mcp.json'
      ].join('\n')
    )
    writeFileSync(join(project, 'agent/mcps/mcp.json'), JSON.stringify({ mcpServers: { helper: { command: process.execPath, args: [join(REPO_ROOT, 'test/support/mcp-test-server.mjs')] } } }))
    glassbox = await createGlassbox({ dataDir: join(temp.dir, 'data'), projectPath: project, watch: false, extractMemories: false })
    pushed.length = 0
    glassbox.subscribe((event) => void pushed.push(event))
  })
  afterEach(async () => {
    await glassbox.close()
    temp.cleanup()
  })

  it('lists what the project asks, unapproved, in words naming exactly that', async () => {
    const entries = await glassbox.getTrust({})
    expect(entries.map(({ description, approved, askedNow }) => ({ description, approved, askedNow }))).toEqual([
      { description: 'connect to db.internal:5432 (postgres database analytics) as analyst with $PG_PASSWORD', approved: false, askedNow: true },
      { description: `start the process \`${process.execPath} ${join(REPO_ROOT, 'test/support/mcp-test-server.mjs')}\``, approved: false, askedNow: true }
    ])
    expect((await glassbox.getMcpStatus({})).servers.map((server) => server.state)).toEqual(['not-approved'])
  })

  it('approving the server starts it and tells the renderer; revoking stops it and keeps nothing approved', async () => {
    const helper = (await glassbox.getTrust({}))[1]
    const approved = await glassbox.approveTrust({ fingerprint: helper.fingerprint })
    expect(approved[1]).toMatchObject({ approved: true, askedNow: true })
    expect((await glassbox.getMcpStatus({})).servers[0]).toMatchObject({ state: 'ready' })
    expect(pushed.some((event) => event.channel === 'mcp-changed' && event.status.servers[0].state === 'ready')).toBe(true)
    const revoked = await glassbox.revokeTrust({ fingerprint: helper.fingerprint })
    expect(revoked.every((entry) => !entry.approved)).toBe(true)
    expect((await glassbox.getMcpStatus({})).servers[0].state).toBe('not-approved')
  })

  it('refuses to approve what the project does not ask', async () => {
    await expect(glassbox.approveTrust({ fingerprint: 'not-a-request' })).rejects.toThrow('This project does not ask for that')
  })

  it('a refused sync opens the dialog: the renderer is told what is still unapproved', async () => {
    const summary = await glassbox.syncProject({})
    expect(summary.errors?.join('\n')).toContain('This project asks to connect to db.internal:5432 (postgres database analytics) as analyst with $PG_PASSWORD')
    const requested = pushed.find((event) => event.channel === 'trust-requested')
    expect(requested?.channel === 'trust-requested' && requested.entries.map((entry) => entry.request.kind)).toEqual(['server', 'process'])
  })
})
