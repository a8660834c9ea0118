import { createServer, type Server, type Socket } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { executeSqlTool } from '../agent/tools/execute-sql'
import { makeToolContext } from '../agent/tools/tool-context.testing'
import { syncProject } from '../data/sync'
import { loadProject } from '../project/load'
import { openTempStore } from '../store/test-store'
import { TrustGate, withTrustGate } from './gate'
import { fingerprintOf } from './requests'
import { serverTrustRequest } from './server-trust'

// A project names a server and asks for the user's environment variables. Until the user approves exactly
// that, the server named must receive nothing at all: a real TCP listener on 127.0.0.1 counts connections.

const SECRET_USER = 'GLASSBOX_TRUST_TEST_USER'
const SECRET_PASSWORD = 'GLASSBOX_TRUST_TEST_PASSWORD'

describe('a server the project names receives nothing before approval', () => {
  let listener: Server
  let port: number
  const received: Buffer[] = []
  let connections = 0
  const sockets = new Set<Socket>()
  let temp: ReturnType<typeof makeTempDir>
  let stored: ReturnType<typeof openTempStore>

  beforeAll(async () => {
    process.env[SECRET_USER] = 'ghp_user_token_from_env'
    process.env[SECRET_PASSWORD] = 'AKIA_password_from_env'
    listener = createServer((socket) => {
      connections += 1
      sockets.add(socket)
      socket.on('data', (chunk) => {
        received.push(chunk)
        // Not a Postgres server: hang up once the client has shown what it sends.
        socket.destroy()
      })
      socket.on('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    const address = listener.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    port = address.port
  })
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => listener.close(resolve))
    delete process.env[SECRET_USER]
    delete process.env[SECRET_PASSWORD]
  })
  beforeEach(() => {
    temp = makeTempDir()
    stored = openTempStore()
    connections = 0
    received.length = 0
    writeConfig({})
  })
  afterEach(() => {
    stored.cleanup()
    temp.cleanup()
  })

  function writeConfig({ user = `"{{ env('${SECRET_USER}') }}"`, host = '127.0.0.1', database = 'analytics' }: { user?: string; host?: string; database?: string }): void {
    writeFileSync(
      join(temp.dir, 'nao_config.yaml'),
      [
        'databases:',
        '  - name: warehouse',
        '    type: postgres',
        `    host: ${host}`,
        `    port: ${port}`,
        `    database: ${database}`,
        `    user: ${user}`,
        `    password: "{{ env('${SECRET_PASSWORD}') }}"`
      ].join('\n')
    )
  }
  const gate = (): TrustGate => new TrustGate(temp.dir, stored.store.trust)
  const allReceived = (): string => Buffer.concat(received).toString('latin1')

  it('sync outside any approval connects to nothing and says exactly what the project asks', async () => {
    const result = await syncProject(temp.dir)
    expect(connections).toBe(0)
    expect(result.errors.join('\n')).toContain(
      `This project asks to connect to 127.0.0.1:${port} (postgres database analytics) as $${SECRET_USER} with $${SECRET_PASSWORD}, $${SECRET_USER}. Nothing was sent`
    )
  })

  it('execute_sql under a gate without that approval is a tool error, sends nothing, and the request waits for the dialog', async () => {
    const trust = gate()
    const ctx = await makeToolContext(temp.dir)
    try {
      const result = await withTrustGate(trust, () => executeSqlTool.invoke({ sql_query: 'SELECT 1', database_id: 'warehouse' }, ctx))
      expect(result.ok).toBe(false)
      expect(result.output).toContain(`This project asks to connect to 127.0.0.1:${port}`)
      expect(connections).toBe(0)
      expect(trust.refusedRequests().map((request) => request.kind)).toEqual(['server'])
    } finally {
      ctx.close()
    }
  })

  it('once approved, the same sync reaches the server (so it is the gate that held it back)', async () => {
    const trust = gate()
    const server = (await loadProject(temp.dir)).databases[0].server
    if (!server) throw new Error('no server parsed')
    trust.approve(serverTrustRequest(server, 'postgres'))
    await withTrustGate(trust, () => syncProject(temp.dir))
    expect(connections).toBe(1)
    // The startup message carries the user name, read from the environment only now.
    expect(allReceived()).toContain('ghp_user_token_from_env')
  })

  it('a changed user asks again: the earlier approval does not cover it', async () => {
    const trust = gate()
    const before = (await loadProject(temp.dir)).databases[0].server
    if (!before) throw new Error('no server parsed')
    trust.approve(serverTrustRequest(before, 'postgres'))
    writeConfig({ user: 'someone_else' })
    const after = (await loadProject(temp.dir)).databases[0].server
    if (!after) throw new Error('no server parsed')
    expect(fingerprintOf(serverTrustRequest(after, 'postgres'))).not.toBe(fingerprintOf(serverTrustRequest(before, 'postgres')))
    const result = await withTrustGate(trust, () => syncProject(temp.dir))
    expect(connections).toBe(0)
    expect(result.errors.join('\n')).toContain('as someone_else with $GLASSBOX_TRUST_TEST_PASSWORD')
  })

  it('env() in host or database is a diagnostic, is not evaluated, and nothing connects even with approval', async () => {
    process.env.GLASSBOX_TRUST_TEST_HOST = '127.0.0.1'
    try {
      writeConfig({ host: `"{{ env('GLASSBOX_TRUST_TEST_HOST') }}"`, database: `"{{ env('${SECRET_PASSWORD}') }}"` })
      const project = await loadProject(temp.dir)
      expect(project.diagnostics.map((d) => d.problem).join('\n')).toContain(
        'env() is allowed only in `user` and `password`; `host`, `database` must be written out'
      )
      expect(project.databases[0].server).toBeUndefined()
      const trust = new TrustGate(temp.dir, stored.store.trust, { approveAll: true })
      await withTrustGate(trust, () => syncProject(temp.dir))
      expect(connections).toBe(0)
    } finally {
      delete process.env.GLASSBOX_TRUST_TEST_HOST
    }
  })
})
