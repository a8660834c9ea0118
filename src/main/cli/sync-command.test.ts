import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createServer } from 'node:net'
import { spawn, spawnSync } from 'node:child_process'
import { copyNaoLayout, makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { runCli } from '../../../test/support/capture-io'

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

const cli = runCli

describe('glassbox sync', () => {
  it('syncs the nao-layout fixture: progress on stderr, summary on stdout', async () => {
    const project = copyNaoLayout()
    cleanups.push(project.cleanup)
    rmSync(join(project.dir, 'databases'), { recursive: true })
    const { code, stdout, stderr } = await cli(['sync', '--project', project.dir])
    expect(code).toBe(0)
    expect(stderr.split('\n')[0]).toBe('[1/8] duckdb-jaffle-shop: main.customers')
    const lines = stdout.split('\n')
    expect(lines.slice(0, 3)).toEqual([
      'duckdb-jaffle-shop: 8 tables in databases/type=duckdb/database=jaffle_shop (8 updated)',
      'changed 24 files:',
      '  databases/type=duckdb/database=jaffle_shop/schema=main/table=customers/columns.md'
    ])
    expect(lines.slice(-3)).toEqual(['  … 4 more', 'Synced 8 tables.', ''])
  })

  it('reports a missing database file on stderr with exit code 1', async () => {
    const project = copyNaoLayout()
    cleanups.push(project.cleanup)
    rmSync(join(project.dir, 'jaffle_shop.duckdb'))
    const { code, stderr } = await cli(['sync', '--project', project.dir])
    expect(code).toBe(1)
    expect(stderr).toBe('error: duckdb-jaffle-shop: database file not found: jaffle_shop.duckdb (declared in nao_config.yaml)\n')
  })

  it('refuses a missing --project or folder with one line', async () => {
    expect(await cli(['sync'])).toEqual({ code: 1, stdout: '', stderr: 'glassbox sync: --project DIR is required\n' })
    const missing = await cli(['sync', '--project', '/no/such/folder'])
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'glassbox sync: project folder not found: /no/such/folder\n' })
  })

  it('reads a nao_config.yaml with Jinja expressions and a broken entry', async () => {
    const project = copyNaoLayout()
    cleanups.push(project.cleanup)
    writeFileSync(
      join(project.dir, 'nao_config.yaml'),
      "project_name: x\nkey: {{ env('X') }}\ndatabases:\n- name: broken\n- name: shop\n  type: duckdb\n  path: ./jaffle_shop.duckdb\n"
    )
    const { code, stdout, stderr } = await cli(['sync', '--project', project.dir])
    expect(code).toBe(1)
    expect(stdout).toContain('shop: 8 tables in databases/type=duckdb/database=jaffle_shop')
    expect(stderr).toContain('error: nao_config.yaml databases[0] needs at least `name` and `type`; skipped')
  })
})

describe('glassbox sync and a server the project names', () => {
  it('connects to nothing without --trust-project, says what was asked, and keeps the approval --trust-project gives', async () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    let connections = 0
    const listener = createServer((socket) => {
      connections += 1
      socket.destroy()
    })
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => void listener.close())
    const address = listener.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    writeFileSync(
      join(temp.dir, 'nao_config.yaml'),
      `databases:\n  - {name: warehouse, type: postgres, host: 127.0.0.1, port: ${address.port}, database: analytics, user: analyst}\n`
    )
    const dataDir = join(temp.dir, '.data')
    const refused = await cli(['sync', '--project', temp.dir, '--data-dir', dataDir])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`error: warehouse: cannot list the tables of 127.0.0.1:${address.port}/analytics: This project asks to connect to 127.0.0.1:${address.port} (postgres database analytics) as analyst. Nothing was sent`)
    expect(connections).toBe(0)
    await cli(['sync', '--project', temp.dir, '--data-dir', dataDir, '--trust-project'])
    expect(connections).toBe(1)
    await cli(['sync', '--project', temp.dir, '--data-dir', dataDir])
    expect(connections).toBe(2)
  })
})

// util-linux `script` gives the command a terminal, where it asks instead of refusing.
const hasScript = spawnSync('script', ['--version']).status === 0

describe.skipIf(!hasScript)('glassbox sync on a terminal', () => {
  it('asks yes/no, naming what the project asks; "n" refuses and sends nothing', async () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    let connections = 0
    const listener = createServer((socket) => {
      connections += 1
      socket.destroy()
    })
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => void listener.close())
    const address = listener.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    writeFileSync(join(temp.dir, 'nao_config.yaml'), `databases:\n  - {name: warehouse, type: postgres, host: 127.0.0.1, port: ${address.port}, database: analytics, user: analyst}\n`)
    const command = `node ${join(REPO_ROOT, 'bin/glassbox.js')} sync --project ${temp.dir} --data-dir ${join(temp.dir, '.data')}`
    const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('[y/N]') && child.stdin.writable) child.stdin.end('n\n')
    })
    await new Promise((resolve) => child.on('close', resolve))
    expect(output).toContain(`This project asks to connect to 127.0.0.1:${address.port} (postgres database analytics) as analyst.`)
    expect(output).toContain('Approve it for this project? [y/N]')
    expect(output).toContain('Nothing was sent or started until you approve it')
    expect(connections).toBe(0)
  }, 60_000)
})
