import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyNaoLayout } from '../../../test/support/fixtures'
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
