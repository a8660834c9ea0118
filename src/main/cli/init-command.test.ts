import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { parse } from 'yaml'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { captureIo } from '../../../test/support/capture-io'
import { isAgentRequest, latestTurn, startScriptedServer, type RecordedRequest, type Turn } from '../../../test/support/scripted-openai-server'
import { runInit } from './init-command'

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

/** A folder as an analyst has it: a DuckDB file with two tables and a CSV export beside it. */
async function dataFolder(): Promise<string> {
  const temp = makeTempDir('glassbox-init-')
  cleanups.push(temp.cleanup)
  const dir = join(temp.dir, 'coffee')
  mkdirSync(join(dir, 'exports'), { recursive: true })
  const instance = await DuckDBInstance.create(join(dir, 'shop.duckdb'))
  const connection = await instance.connect()
  await connection.run('CREATE TABLE customers AS SELECT range AS id, \'c\' || range AS name FROM range(12)')
  await connection.run('CREATE TABLE orders AS SELECT range AS id, range % 12 AS customer_id, (range * 3.5)::DECIMAL(10,2) AS amount FROM range(40)')
  connection.closeSync()
  instance.closeSync()
  writeFileSync(join(dir, 'exports/visits.csv'), 'day,visits\n2024-01-01,10\n2024-01-02,12\n2024-01-03,9\n')
  return dir
}

/** The real `glassbox` process (asynchronous: a scripted server may answer from this process). */
function glassbox(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, ['bin/glassbox.js', ...args], { cwd: REPO_ROOT, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
    )
  )
}

describe('glassbox init', () => {
  it('makes a folder holding a DuckDB file and a CSV a project whose prompt, sync and example test pass', async () => {
    const dir = await dataFolder()
    const data = makeTempDir('glassbox-init-store-')
    cleanups.push(data.cleanup)

    const init = await glassbox(['init', dir, '--yes'])
    expect(init.stderr).toBe('')
    expect(init.code).toBe(0)
    expect(init.stdout).toContain('wrote nao_config.yaml')
    expect(init.stdout).toContain('wrote tests/row_count_orders.yml')
    expect(init.stdout).toMatch(/synced 3 tables into databases\//)

    const config = parse(readFileSync(join(dir, 'nao_config.yaml'), 'utf8'))
    expect(config).toEqual({
      project_name: 'coffee',
      databases: [
        { name: 'shop', type: 'duckdb', path: './shop.duckdb', accessors: ['columns', 'preview', 'description'], include: [], exclude: [] },
        { name: 'visits', type: 'csv', path: './exports/visits.csv', accessors: ['columns', 'preview', 'description'], include: [], exclude: [] }
      ]
    })
    for (const path of ['RULES.md', '.naoignore', 'agent/skills', 'databases/type=duckdb/database=shop/schema=main/table=orders/columns.md']) {
      expect(existsSync(join(dir, path)), path).toBe(true)
    }
    expect(parse(readFileSync(join(dir, 'tests/row_count_orders.yml'), 'utf8'))).toEqual({
      name: 'row_count_orders',
      prompt: 'How many rows does the orders table have?',
      sql: 'SELECT count(*) AS row_count FROM "orders"\n',
      database: 'shop'
    })

    const prompt = await glassbox(['prompt', '--project', dir, '--data-dir', data.dir, '--json'])
    expect(prompt.stderr).toBe('')
    const preview = JSON.parse(prompt.stdout)
    expect(preview.diagnostics).toEqual([])
    expect(preview.system).toContain('orders')

    const sync = await glassbox(['sync', '--project', dir])
    expect(sync.code).toBe(0)
    expect(sync.stdout).toContain('Synced 3 tables.')

    // The model writes its own SQL (not the case's), which gives the same count.
    const server = await startScriptedServer({
      script: (request: RecordedRequest): Turn => {
        if (!isAgentRequest(request)) return { text: '{}' }
        return latestTurn(request).toolResults.length === 0
          ? { toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT COUNT(id) FROM orders', database_id: 'shop' } }] }
          : { text: 'The orders table has 40 rows.' }
      }
    })
    try {
      const test = await glassbox(['test', '--project', dir, '--endpoint', server.url, '--model', 'scripted-model', '--data-dir', data.dir, '--json'])
      expect(test.stderr).toBe('')
      const report = JSON.parse(test.stdout)
      expect(report).toMatchObject({ passed: 1, failed: 0, errored: 0 })
      expect(report.cases[0]).toMatchObject({ name: 'row_count_orders', expected: [['40']], actual: [['40']] })
      expect(test.code).toBe(0)
    } finally {
      await server.close()
    }
  }, 240_000)

  it('never overwrites a file that is there, and says what it kept', async () => {
    const dir = await dataFolder()
    writeFileSync(join(dir, 'RULES.md'), 'Our own rules.\n')
    const first = captureIo()
    expect(await runInit([dir, '--yes', '--no-sync'], first.io, null)).toBe(0)
    expect(first.out()).toContain('kept RULES.md (it exists; not overwritten)')
    expect(readFileSync(join(dir, 'RULES.md'), 'utf8')).toBe('Our own rules.\n')
    const config = readFileSync(join(dir, 'nao_config.yaml'), 'utf8')

    writeFileSync(join(dir, 'other.csv'), 'a\n1\n')
    const second = captureIo()
    expect(await runInit([dir, '--yes', '--no-sync'], second.io, null)).toBe(0)
    expect(second.out()).not.toContain('wrote ')
    expect(second.out()).toContain('kept nao_config.yaml')
    expect(readFileSync(join(dir, 'nao_config.yaml'), 'utf8')).toBe(config)
  }, 60_000)

  it('asks on a terminal: the name, each file, then whether to go ahead', async () => {
    const dir = await dataFolder()
    const asked: string[] = []
    const answers = ['Coffee shop', '', 'n', '']
    const { io, out } = captureIo()
    const code = await runInit([dir, '--no-sync'], io, async (question) => {
      asked.push(question)
      return answers.shift() ?? ''
    })
    expect(code).toBe(0)
    expect(asked).toEqual([
      'Project name [coffee]: ',
      'Declare shop.duckdb (duckdb) as "shop"? [Y/n] ',
      'Declare exports/visits.csv (csv) as "visits"? [Y/n] ',
      'Go ahead? [Y/n] '
    ])
    expect(out()).toContain('Will write (existing files are kept): nao_config.yaml, RULES.md, .naoignore, tests/row_count_orders.yml, agent/skills/, tests/')
    const config = parse(readFileSync(join(dir, 'nao_config.yaml'), 'utf8'))
    expect(config.project_name).toBe('Coffee shop')
    expect(config.databases.map((entry: { name: string }) => entry.name)).toEqual(['shop'])
  }, 60_000)

  it('takes --database and --name for scripts, and refuses a file outside the folder in one line', async () => {
    const dir = await dataFolder()
    const { io, out } = captureIo()
    expect(await runInit([dir, '--database', 'exports/visits.csv', '--name', 'visits only', '--no-sync'], io, null)).toBe(0)
    expect(out()).toContain('database visits: exports/visits.csv (csv)')
    expect(out()).toContain('wrote tests/row_count_visits.yml')
    expect(parse(readFileSync(join(dir, 'nao_config.yaml'), 'utf8')).databases).toHaveLength(1)

    const elsewhere = makeTempDir()
    cleanups.push(elsewhere.cleanup)
    writeFileSync(join(elsewhere.dir, 'far.csv'), 'a\n1\n')
    symlinkSync(join(elsewhere.dir, 'far.csv'), join(dir, 'link.csv'))
    const refused = captureIo()
    await expect(runInit([dir, '--database', join(elsewhere.dir, 'far.csv')], refused.io, null)).rejects.toThrow(/far\.csv is outside .*: copy it into the folder first/)
    await expect(runInit([dir, '--database', 'link.csv'], refused.io, null)).rejects.toThrow(/link\.csv is outside/)
    await expect(runInit([dir, '--database', 'missing.duckdb'], refused.io, null)).rejects.toThrow('database file not found: missing.duckdb')
  }, 60_000)

  it('makes the folder of a database file a project declaring only that file', async () => {
    const dir = await dataFolder()
    const { io, out } = captureIo()
    expect(await runInit([join(dir, 'shop.duckdb'), '--yes', '--no-sync'], io, null)).toBe(0)
    expect(out()).toContain(`Project "coffee" in ${dir}`)
    expect(parse(readFileSync(join(dir, 'nao_config.yaml'), 'utf8')).databases.map((entry: { path: string }) => entry.path)).toEqual(['./shop.duckdb'])
  }, 60_000)

  it('writes nothing through a folder that links outside the project', async () => {
    const dir = await dataFolder()
    const elsewhere = makeTempDir()
    cleanups.push(elsewhere.cleanup)
    symlinkSync(elsewhere.dir, join(dir, 'tests'))
    await expect(runInit([dir, '--yes', '--no-sync'], captureIo().io, null)).rejects.toThrow('tests/row_count_orders.yml: its folder leads outside the project; nothing was written there')
    expect(readdirSync(elsewhere.dir)).toEqual([])
  }, 60_000)
})
