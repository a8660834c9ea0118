import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../../test/support/fixtures'
import { writeFilesProject } from '../../engines/files/data-files.testing'
import { syncProject } from '../../data/sync'
import { DuckDBInstance } from '@duckdb/node-api'
import { executeSqlTool } from './execute-sql'
import { makeToolContext } from './tool-context.testing'

// #14.1 and #11 B1/B2: CSV, Parquet and JSON files inside the project queried through the locked DuckDB;
// nothing outside, nothing through a symlink out, no writes, no logging switch, bounded results.

describe('execute_sql on data files in the project', () => {
  let temp: ReturnType<typeof makeTempDir>
  let root: string
  let outside: string
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    temp = makeTempDir()
    root = join(temp.dir, 'project')
    outside = join(temp.dir, 'outside')
    mkdirSync(outside)
    await writeFilesProject(root)
    writeFileSync(join(outside, 'secret.csv'), 'secret\nTOP-SECRET-VALUE\n')
    mkdirSync(join(root, 'links'))
    symlinkSync(join(outside, 'secret.csv'), join(root, 'links', 'leak.csv'))
    writeFileSync(join(root, 'links', 'fine.csv'), 'a\n1\n')
    ctx = await makeToolContext(root, { limits: { sqlTimeoutMs: 20_000 } })
  })
  afterAll(() => {
    ctx.close()
    temp.cleanup()
  })

  const run = (sql: string, databaseId?: string) => executeSqlTool.invoke({ sql_query: sql, ...(databaseId ? { database_id: databaseId } : {}) }, ctx)

  it('lists each declared file under its name', () => {
    expect(ctx.databases.list().map((database) => database.id)).toEqual(['sales', 'items', 'events'])
  })

  it('queries a declared CSV under the table name sync gives it', async () => {
    const result = await run('SELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY region')
    expect(result.ok, result.output).toBe(true)
    expect(result.output).toContain('| north | 40.5 |')
  })

  it('queries a declared Parquet glob under the database name', async () => {
    const result = await run('SELECT count(*) AS n FROM items', 'items')
    expect(result.output).toContain('| 3000 |')
  })

  it('queries a declared JSON file', async () => {
    const result = await run('SELECT sum(n) AS n FROM events', 'events')
    expect(result.output).toContain('| 7 |')
  })

  it('reads project-relative paths: a quoted file name and read_parquet with a glob', async () => {
    expect((await run("SELECT count(*) AS n FROM 'data/sales.csv'")).output).toContain('| 3 |')
    expect((await run("SELECT max(part) AS p FROM read_parquet('data/items/*.parquet')")).output).toContain('| 2 |')
    expect((await run("SELECT count(*) AS n FROM read_csv(['data/sales.csv', 'links/fine.csv'], union_by_name = true)")).output).toContain('| 4 |')
  })

  const refused: Array<[string, RegExp]> = [
    ['an absolute path outside', /disabled|Permission/i],
    ['a relative path climbing out', /disabled|Permission/i],
    ['a symlink inside that points out', /disabled|Permission/i],
    ['a glob over a folder holding that symlink', /disabled|Permission/i],
    ['read_text of the outside file', /disabled|Permission/i]
  ]
  const attacks: Record<string, string> = {
    'an absolute path outside': '',
    'a relative path climbing out': "SELECT * FROM read_csv('../outside/secret.csv')",
    'a symlink inside that points out': "SELECT * FROM 'links/leak.csv'",
    'a glob over a folder holding that symlink': "SELECT * FROM read_csv('links/*.csv', union_by_name = true)",
    'read_text of the outside file': ''
  }
  it.each(refused)('refuses %s', async (what, reason) => {
    const sql =
      what === 'an absolute path outside'
        ? `SELECT * FROM read_csv('${join(outside, 'secret.csv')}')`
        : what === 'read_text of the outside file'
          ? `SELECT content FROM read_text('${join(outside, 'secret.csv')}')`
          : attacks[what]
    const result = await run(sql)
    expect(result.ok).toBe(false)
    expect(result.output).toMatch(reason)
    expect(result.output).not.toContain('TOP-SECRET-VALUE')
  })

  it.each([
    "COPY (SELECT * FROM sales) TO 'data/copy.csv'",
    "COPY sales TO 'data/copy.parquet' (FORMAT parquet)",
    'CREATE TABLE data_copy AS SELECT * FROM sales',
    "SELECT * FROM query('COPY (SELECT 1) TO ''data/copy.csv''')",
    "INSTALL httpfs",
    "SELECT * FROM read_csv('http://127.0.0.1:9/x.csv')"
  ])('refuses a write or a reach out: %s', async (sql) => {
    const result = await run(sql)
    expect(result.ok).toBe(false)
    expect(existsSync(join(root, 'data', 'copy.csv'))).toBe(false)
    expect(existsSync(join(root, 'data', 'copy.parquet'))).toBe(false)
  })
})

describe('execute_sql never lets a query take the process down (#11 B1)', () => {
  let temp: ReturnType<typeof makeTempDir>
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    temp = makeTempDir()
    await writeFilesProject(temp.dir)
    ctx = await makeToolContext(temp.dir, { limits: { sqlTimeoutMs: 60_000 } })
  })
  afterAll(() => {
    ctx.close()
    temp.cleanup()
  })

  it.each([
    "CALL enable_logging(storage='file', storage_path='logs')",
    "SELECT * FROM enable_logging(storage='file', storage_path='logs')",
    "CALL enable_logging(storage='stdout')",
    "SELECT * FROM query('CALL enable_logging(storage=''stdout'')')",
    "SELECT 1; CALL enable_logging(storage='stdout')",
    "SELECT write_log('hello')",
    'CHECKPOINT',
    "PRAGMA enable_profiling",
    "SET enable_external_access = true"
  ])('refuses %s, and the next query still answers', async (sql) => {
    const refused = await executeSqlTool.invoke({ sql_query: sql }, ctx)
    expect(refused.ok).toBe(false)
    expect(refused.output).toMatch(/not allowed|Only read/)
    const next = await executeSqlTool.invoke({ sql_query: 'SELECT 42 AS answer' }, ctx)
    expect(next.output).toContain('| 42 |')
    expect(existsSync(join(temp.dir, 'logs'))).toBe(false)
  })

  it('refuses to open a project database whose view or macro calls enable_logging; sync refuses it too', async () => {
    const project = join(temp.dir, 'hostile')
    mkdirSync(project)
    const instance = await DuckDBInstance.create(join(project, 'hostile.duckdb'))
    const connection = await instance.connect()
    await connection.run('CREATE TABLE t AS SELECT 1 AS x')
    await connection.run("CREATE VIEW innocent AS SELECT * FROM enable_logging(storage='file', storage_path='logs')")
    await connection.run("CREATE MACRO m() AS TABLE SELECT * FROM enable_logging(storage='stdout')")
    connection.closeSync()
    instance.closeSync()
    writeFileSync(join(project, 'nao_config.yaml'), 'databases:\n  - {name: hostile, type: duckdb, path: hostile.duckdb}\n')
    const hostile = await makeToolContext(project)
    try {
      for (const sql of ['SELECT * FROM innocent', 'SELECT * FROM m()', 'SELECT 1']) {
        const result = await executeSqlTool.invoke({ sql_query: sql }, hostile)
        expect(result.ok).toBe(false)
        expect(result.output).toMatch(/This database is not opened: its view innocent does more than read \(The table function enable_logging\(\) is not allowed/)
      }
    } finally {
      hostile.close()
    }
    const synced = await syncProject(project)
    expect(synced.errors).toEqual([expect.stringMatching(/^hostile: cannot open hostile\.duckdb as duckdb: This database is not opened/)])
    expect(existsSync(join(project, 'logs'))).toBe(false)
    expect((await executeSqlTool.invoke({ sql_query: 'SELECT 42 AS answer' }, ctx)).output).toContain('| 42 |')
  })

  it('turns an engine error into a tool error', async () => {
    const result = await executeSqlTool.invoke({ sql_query: "SELECT 1 / 0, 'a'::INTEGER" }, ctx)
    expect(result.ok).toBe(false)
    expect(result.output).toMatch(/^Error: .*Conversion Error/)
  })
})

describe('execute_sql caps what one query brings into the process (#11 B2)', () => {
  let temp: ReturnType<typeof makeTempDir>
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    temp = makeTempDir()
    await writeFilesProject(temp.dir)
    ctx = await makeToolContext(temp.dir, { limits: { sqlTimeoutMs: 90_000 } })
  })
  afterAll(() => {
    ctx.close()
    temp.cleanup()
  })

  it('keeps 250 cells of 20 MB each to a few megabytes: cells are cut, the heap stays small', async () => {
    const heapBefore = process.memoryUsage().heapUsed
    const started = performance.now()
    const result = await executeSqlTool.invoke({ sql_query: "SELECT repeat('x', 20000000) AS s FROM range(250)" }, ctx)
    const seconds = (performance.now() - started) / 1000
    expect(result.ok, result.output).toBe(true)
    const stored = ctx.queryStore.get(result.output.match(/query_id: (\S+)/)?.[1] ?? '')
    expect(stored?.rows).toHaveLength(250)
    expect(String(stored?.rows[0][0])).toMatch(/^x{10000}… \[19,990,000 more characters\]$/)
    expect(result.output).toContain(`| ${'x'.repeat(200)}… (19999800 more characters) |`)
    expect(result.output.length).toBeLessThanOrEqual(ctx.limits.maxOutputChars + 200)
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024)
    expect(seconds).toBeLessThan(90)
  }, 120_000)

  it('stops reading at the byte budget and says so', async () => {
    const tight = { ...ctx, limits: { ...ctx.limits, maxResultBytes: 1024 * 1024 } }
    const result = await executeSqlTool.invoke({ sql_query: "SELECT i, repeat('y', 5000) AS s FROM range(100000) t(i)" }, tight)
    expect(result.ok).toBe(true)
    expect(result.output).toMatch(/… result truncated at 1 MB: \d+ rows kept, the rest was not read/)
    expect(result.output).toMatch(/at least \d+ rows/)
  })
})
