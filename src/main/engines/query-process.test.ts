import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { mariadbAvailable, MYSQL_ANALYST, mysqlConfig, startMariaDb, type MariaDbServer } from '../../../test/support/mariadb-server'
import { ANALYST, postgresAvailable, postgresConfig, SHOP_SQL, startPostgres, type PostgresCluster } from '../../../test/support/postgres-server'
import { executeSqlTool } from '../agent/tools/execute-sql'
import { makeToolContext } from '../agent/tools/tool-context.testing'
import { trustingEverything } from '../trust/trust.testing'
import { postgresEngine } from './postgres'
import { createServerQueryHost } from './query-process'
import { Secret } from './server-config'

// Server queries run in a child process: what a query returns or does to the driver (a value too long for a
// JavaScript string, gigabytes of rows, a killed process) is a tool error here, never the end of this process,
// and the next query works.

/** This process's children that are query processes (Linux /proc). */
function queryChildren(): number[] {
  const pids = readdirSync('/proc/self/task').flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean))
  return pids.map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('query-child')
    } catch {
      return false
    }
  })
}

async function whenQueryChildStarted(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const [pid] = queryChildren()
    if (pid) return pid
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('no query process started')
}

const postgres = postgresAvailable()

describe.skipIf(!postgres)('Postgres queries out of the process', () => {
  let cluster: PostgresCluster
  let temp: ReturnType<typeof makeTempDir>
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    cluster = await startPostgres(SHOP_SQL)
    temp = makeTempDir()
    process.env.GLASSBOX_TEST_PG_PASSWORD = ANALYST.password
    writeFileSync(join(temp.dir, 'nao_config.yaml'), postgresConfig(cluster.port))
    ctx = await makeToolContext(temp.dir, { limits: { sqlTimeoutMs: 60_000 } })
  }, 120_000)
  afterAll(async () => {
    ctx?.close()
    temp?.cleanup()
    await cluster?.stop()
  })

  const run = (sql: string, signal?: AbortSignal) =>
    trustingEverything(temp.dir, () => executeSqlTool.invoke({ sql_query: sql, database_id: 'warehouse' }, { ...ctx, signal: signal ?? ctx.signal }))

  const storedCell = (output: string, row: number, column: number): string =>
    String(ctx.queryStore.get(output.match(/query_id: (\S+)/)?.[1] ?? '')?.rows[row]?.[column])

  it('cuts a value longer than a JavaScript string on the server, and answers the next query', async () => {
    const result = await run("SELECT repeat('x', 600000000) AS huge, 'short' AS small")
    expect(result.ok, result.output).toBe(true)
    expect(storedCell(result.output, 0, 0)).toMatch(/^x{10000}… \[599,990,000 more characters\]$/)
    expect(storedCell(result.output, 0, 1)).toBe('short')
    const next = await run('SELECT count(*) AS n FROM orders')
    expect(next.output).toContain('| 300 |')
  }, 120_000)

  it('keeps this process small while 250 rows of 20 MB come back, each cut', async () => {
    const before = process.memoryUsage().rss
    const result = await run("SELECT g, repeat('x', 20000000) AS s FROM generate_series(1, 250) g")
    const growth = process.memoryUsage().rss - before
    expect(growth).toBeLessThan(300 * 1024 * 1024)
    expect(result.output).toContain('(250 total)')
    expect(storedCell(result.output, 249, 1)).toMatch(/^x{10000}… \[19,990,000 more characters\]$/)
  }, 180_000)

  it('keeps duplicate column names, types and short values as the query gives them', async () => {
    const result = await run("SELECT 1 AS a, 'x' AS a, DATE '2024-01-02' AS d, ARRAY[1, 2] AS arr, NULL::text AS n -- a comment at the end")
    expect(result.ok, result.output).toBe(true)
    expect(result.output).toContain('| a | a_1 | d | arr | n |')
    expect(result.output).toContain('| 1 | x | 2024-01-02 | {1,2} |')
  })

  it('reads the query as it is when the server will not take the cutting subquery (too many columns for it)', async () => {
    const wide = Array.from({ length: 600 }, (_, index) => `'v${index}' AS c${index}`).join(', ')
    const result = await run(`SELECT ${wide}, repeat('x', 20000) AS long`)
    expect(result.ok, result.output).toBe(true)
    expect(storedCell(result.output, 0, 599)).toBe('v599')
    expect(storedCell(result.output, 0, 600)).toMatch(/^x{10000}… \[10,000 more characters\]$/)
  })

  it('reports a query process killed mid-query as a tool error, and starts a fresh one for the next query', async () => {
    const running = run('SELECT pg_sleep(30)')
    const pid = await whenQueryChildStarted()
    await new Promise((resolve) => setTimeout(resolve, 300))
    process.kill(pid, 'SIGKILL')
    const result = await running
    expect(result.ok).toBe(false)
    expect(result.output).toMatch(/the query engine stopped unexpectedly/i)
    expect((await run('SELECT 1 AS one')).output).toContain('| 1 |')
    expect(queryChildren()).not.toContain(pid)
  }, 60_000)

  it('reports a query process that runs out of memory as such, and answers the next query', async () => {
    const host = createServerQueryHost(postgresEngine.id)
    const server = { host: cluster.host, port: cluster.port, database: cluster.database, user: ANALYST.user, password: new Secret(ANALYST.password), schemaName: null }
    // A budget far past the query process's heap, so the process itself is what stops.
    const request = (sql: string, keepRows: number) => ({ sql, keepRows, maxBytes: 100 * 1024 ** 3, timeoutMs: 120_000, signal: new AbortController().signal })
    try {
      const huge = trustingEverything(temp.dir, () => host.run(server, request("SELECT repeat('x', 9000) FROM generate_series(1, 250000)", 1_000_000)))
      await expect(huge).rejects.toThrow(/The query engine stopped: out of memory at 1.5 GB/)
      expect((await trustingEverything(temp.dir, () => host.run(server, request('SELECT 4 AS four', 10)))).rows).toEqual([[4]])
    } finally {
      host.close()
    }
  }, 180_000)

  it('kills a query process that does not answer Stop, and starts a fresh one for the next query', async () => {
    await run('SELECT 1')
    const [pid] = queryChildren()
    const controller = new AbortController()
    const running = run('SELECT pg_sleep(30)', controller.signal)
    await new Promise((resolve) => setTimeout(resolve, 300))
    process.kill(pid, 'SIGSTOP')
    controller.abort()
    const result = await running
    expect(result.output).toMatch(/cancelled/)
    expect((await run('SELECT 3 AS three')).output).toContain('| 3 |')
    expect(queryChildren()).not.toContain(pid)
  }, 60_000)

  it('Stop cancels the statement on the server and the process stays for the next query', async () => {
    await run('SELECT 1')
    const [pid] = queryChildren()
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 300)
    const result = await run('SELECT pg_sleep(30)', controller.signal)
    expect(result.output).toMatch(/cancelled/)
    expect((await run('SELECT 2 AS two')).output).toContain('| 2 |')
    expect(queryChildren()).toContain(pid)
  }, 60_000)
})

const mysql = mariadbAvailable()

describe.skipIf(!mysql)('MySQL queries out of the process', () => {
  let server: MariaDbServer
  let temp: ReturnType<typeof makeTempDir>
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    server = await startMariaDb('CREATE TABLE t (a int); INSERT INTO t VALUES (1), (2);')
    temp = makeTempDir()
    process.env.GLASSBOX_TEST_MYSQL_PASSWORD = MYSQL_ANALYST.password
    writeFileSync(join(temp.dir, 'nao_config.yaml'), mysqlConfig(server.port))
    ctx = await makeToolContext(temp.dir, { limits: { sqlTimeoutMs: 60_000 } })
  }, 180_000)
  afterAll(async () => {
    ctx?.close()
    temp?.cleanup()
    await server?.stop()
  })

  const run = (sql: string) => trustingEverything(temp.dir, () => executeSqlTool.invoke({ sql_query: sql, database_id: 'dealer' }, ctx))

  it('reports a query process killed mid-query as a tool error, and starts a fresh one for the next query', async () => {
    const running = run('SELECT SLEEP(30)')
    const pid = await whenQueryChildStarted()
    await new Promise((resolve) => setTimeout(resolve, 300))
    process.kill(pid, 'SIGKILL')
    const result = await running
    expect(result.ok).toBe(false)
    expect(result.output).toMatch(/the query engine stopped unexpectedly/i)
    expect((await run('SELECT COUNT(*) AS n FROM t')).output).toContain('| 2 |')
  }, 60_000)
})
