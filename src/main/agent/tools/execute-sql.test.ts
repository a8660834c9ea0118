import { createHash } from 'node:crypto'
import { copyFileSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NAO_LAYOUT, makeTempDir } from '../../../../test/support/fixtures'
import { loadProject } from '../../project/load'
import { openLockedDuckDb } from '../../engines/duckdb/runner'
import { executeSqlTool } from './execute-sql'
import { makeToolContext } from './tool-context.testing'

const DUCKDB_FILE = join(NAO_LAYOUT, 'jaffle_shop.duckdb')
const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex')

describe('execute_sql on DuckDB (nao-layout fixture)', () => {
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  let hashBefore: string
  beforeAll(async () => {
    hashBefore = sha256(DUCKDB_FILE)
    ctx = await makeToolContext(NAO_LAYOUT, { limits: { sqlTimeoutMs: 1_000 } })
  })
  afterAll(() => {
    ctx.close()
    expect(sha256(DUCKDB_FILE)).toBe(hashBefore)
  })

  it('returns the true total revenue with a query_id', async () => {
    const independent = await DuckDBInstance.create(DUCKDB_FILE, { access_mode: 'READ_ONLY' })
    const connection = await independent.connect()
    const expected = String((await connection.runAndReadAll('SELECT SUM(amount) FROM orders')).getRowsJson()[0][0])
    connection.closeSync()
    independent.closeSync()

    const result = await executeSqlTool.invoke({ sql_query: 'SELECT SUM(amount) AS total_revenue FROM orders' }, ctx)
    expect(result.ok).toBe(true)
    expect(result.output).toContain('query_id: q1')
    expect(result.output).toContain(`| ${expected} |`)
    expect(ctx.queryStore.get('q1')?.columns).toEqual(['total_revenue'])
  })

  const refused: Array<[string, RegExp]> = [
    ['DROP TABLE orders', /read-only|Only read/i],
    ['DELETE FROM orders', /read-only|Only read/i],
    ["INSERT INTO orders SELECT * FROM orders LIMIT 1", /read-only|Only read/i],
    ['UPDATE orders SET amount = 0', /read-only|Only read/i],
    ['CREATE TABLE hack (a INT)', /read-only|Only read/i],
    ["COPY orders TO '/tmp/glassbox-leak.csv'", /disabled|read-only|Only read/i],
    ["ATTACH '/tmp/glassbox-other.duckdb' AS other", /disabled|Only read/i],
    ['INSTALL httpfs', /disabled|Only read/i],
    ['LOAD httpfs', /disabled|Only read/i],
    ["PRAGMA profiling_output = '/tmp/glassbox-profile.txt'", /locked|Only read/i],
    ["SELECT * FROM read_csv('http://127.0.0.1:9/data.csv')", /disabled/i],
    ["SELECT * FROM read_csv('/etc/passwd')", /disabled/i],
    ["SELECT * FROM read_text('/etc/hostname')", /disabled/i]
  ]
  it.each(refused)('refuses %s', async (sql, reason) => {
    const result = await executeSqlTool.invoke({ sql_query: sql }, ctx)
    expect(result.ok).toBe(false)
    expect(result.output).toMatch(reason)
  })

  it('is refused by the engine itself, not only by the statement check', async () => {
    const { instance } = await openLockedDuckDb(DUCKDB_FILE)
    const connection = await instance.connect()
    const attempts = ['DELETE FROM orders', "COPY orders TO '/tmp/glassbox-leak.csv'", "SELECT * FROM read_csv('/etc/passwd')", 'SET enable_external_access = true', 'INSTALL httpfs']
    for (const sql of attempts) await expect(connection.run(sql), sql).rejects.toThrow(/read-only|disabled|locked/i)
    connection.closeSync()
    instance.closeSync()
    expect(existsSync('/tmp/glassbox-leak.csv')).toBe(false)
  })

  it('stops a query that runs forever at the time limit', async () => {
    const started = performance.now()
    const result = await executeSqlTool.invoke(
      { sql_query: 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r' },
      ctx
    )
    expect(result.ok).toBe(false)
    expect(result.output).toMatch(/stopped after 1 s/)
    expect(performance.now() - started).toBeLessThan(3_000)
  })

  it('caps a ten-million-row result for the model and keeps memory bounded', async () => {
    const heapBefore = process.memoryUsage().heapUsed
    const patient = { ...ctx, limits: { ...ctx.limits, sqlTimeoutMs: 15_000 } }
    const result = await executeSqlTool.invoke({ sql_query: 'SELECT * FROM range(10000000)' }, patient)
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore
    expect(result.ok).toBe(true)
    expect(result.output).toContain('… 9999950 more rows (10000000 total)')
    expect(result.output.split('\n').filter((line) => line.startsWith('| ')).length).toBe(52)
    expect(heapGrowth).toBeLessThan(100 * 1024 * 1024)
  }, 20_000)

  it('cuts long cells with a visible marker', async () => {
    const result = await executeSqlTool.invoke({ sql_query: "SELECT repeat('x', 500) AS long_text" }, ctx)
    expect(result.output).toContain(`| ${'x'.repeat(200)}… (300 more characters) |`)
  })

  it('names the available databases when database_id is unknown', async () => {
    const result = await executeSqlTool.invoke({ sql_query: 'SELECT 1', database_id: 'warehouse' }, ctx)
    expect(result.ok).toBe(false)
    expect(result.output).toContain('Unknown database_id "warehouse". Available: duckdb-jaffle-shop.')
  })
})

describe('execute_sql on SQLite', () => {
  let temp: ReturnType<typeof makeTempDir>
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  let dbFile: string
  let hashBefore: string
  beforeAll(async () => {
    temp = makeTempDir()
    dbFile = join(temp.dir, 'shop.sqlite')
    const db = new Database(dbFile)
    db.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, amount REAL); INSERT INTO orders (amount) VALUES (10), (20.5), (30)')
    db.close()
    copyFileSync(dbFile, join(temp.dir, 'other.sqlite'))
    hashBefore = sha256(dbFile)
    ctx = await makeToolContext(temp.dir, { limits: { sqlTimeoutMs: 1_500 }, project: await loadProject(temp.dir) })
  })
  afterAll(() => {
    ctx.close()
    temp.cleanup()
  })

  it('runs a read query', async () => {
    const result = await executeSqlTool.invoke({ sql_query: 'SELECT SUM(amount) AS total FROM orders', database_id: 'shop.sqlite' }, ctx)
    expect(result.output).toContain('| 60.5 |')
  })

  const refused = [
    'DROP TABLE orders',
    'DELETE FROM orders',
    'INSERT INTO orders (amount) VALUES (1)',
    'UPDATE orders SET amount = 0',
    'CREATE TABLE hack (a)',
    'PRAGMA user_version = 7',
    'PRAGMA journal_mode = WAL',
    "ATTACH 'other.sqlite' AS other",
    "VACUUM INTO 'copy.sqlite'",
    'INSERT INTO orders (amount) VALUES (1) RETURNING id'
  ]
  it.each(refused)('refuses %s and leaves the file unchanged', async (sql) => {
    const result = await executeSqlTool.invoke({ sql_query: sql, database_id: 'shop.sqlite' }, ctx)
    expect(result.ok).toBe(false)
    expect(sha256(dbFile)).toBe(hashBefore)
    expect(existsSync(join(temp.dir, 'copy.sqlite'))).toBe(false)
  })

  it('stops a query that runs forever at the time limit', async () => {
    const started = performance.now()
    const result = await executeSqlTool.invoke(
      { sql_query: 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r', database_id: 'shop.sqlite' },
      ctx
    )
    expect(result.output).toMatch(/stopped after 1.5 s/)
    expect(performance.now() - started).toBeLessThan(4_000)
    const after = await executeSqlTool.invoke({ sql_query: 'SELECT count(*) AS n FROM orders', database_id: 'shop.sqlite' }, ctx)
    expect(after.output).toContain('| 3 |')
  })

  it('cuts a 20 MB cell and stops at the byte budget, as the other engines do (#11 B2)', async () => {
    const cell = await executeSqlTool.invoke({ sql_query: 'SELECT hex(zeroblob(10000000)) AS s', database_id: 'shop.sqlite' }, ctx)
    const stored = ctx.queryStore.get(cell.output.match(/query_id: (\S+)/)?.[1] ?? '')
    expect(String(stored?.rows[0][0])).toMatch(/^0{10000}… \[19,990,000 more characters\]$/)
    const tight = { ...ctx, limits: { ...ctx.limits, maxResultBytes: 1024 * 1024 } }
    const budget = await executeSqlTool.invoke(
      { sql_query: 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 100000) SELECT i, hex(zeroblob(2500)) AS s FROM r', database_id: 'shop.sqlite' },
      tight
    )
    expect(budget.output).toMatch(/… result truncated at 1 MB: \d+ rows kept, the rest was not read/)
  })
})
