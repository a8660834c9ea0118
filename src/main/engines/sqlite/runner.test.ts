import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../../test/support/fixtures'
import { createSqliteHost } from './runner'

// SQLite queries run in a child process: a child that dies under a query is a tool error, and the next query
// gets a fresh one.

function sqliteChildren(): number[] {
  const pids = readdirSync('/proc/self/task').flatMap((task) => readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean))
  return pids.map(Number).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'utf8').includes('GLASSBOX_BETTER_SQLITE3=')
    } catch {
      return false
    }
  })
}

describe('the SQLite query process', () => {
  const temp = makeTempDir()
  const path = join(temp.dir, 'shop.sqlite')
  const db = new Database(path)
  db.exec('CREATE TABLE t (a int); INSERT INTO t VALUES (1), (2)')
  db.close()
  const host = createSqliteHost()
  afterAll(() => {
    host.close()
    temp.cleanup()
  })
  const query = (sql: string) => host.run(path, { sql, keepRows: 10, timeoutMs: 30_000, signal: new AbortController().signal })

  it('reports a child killed mid-query as the engine stopping, and answers the next query', async () => {
    const running = query('WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r')
    let pid: number | undefined
    for (let attempt = 0; attempt < 200 && !pid; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      pid = sqliteChildren()[0]
    }
    expect(pid).toBeDefined()
    await new Promise((resolve) => setTimeout(resolve, 300))
    process.kill(pid ?? 0, 'SIGKILL')
    await expect(running).rejects.toThrow(/The query engine stopped unexpectedly: killed by SIGKILL/)
    expect((await query('SELECT count(*) AS n FROM t')).rows).toEqual([[2]])
  }, 30_000)

  it('reports a child that runs out of memory as such, and answers the next query', async () => {
    // A budget far past the child's heap, so the child itself is what stops.
    const huge = host.run(path, {
      sql: "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r LIMIT 400000) SELECT i, printf('%.*c', 9000, 'x') FROM r",
      keepRows: 1_000_000,
      maxBytes: 100 * 1024 ** 3,
      timeoutMs: 120_000,
      signal: new AbortController().signal
    })
    await expect(huge).rejects.toThrow(/The query engine stopped: out of memory at 1.5 GB/)
    expect((await query('SELECT count(*) AS n FROM t')).rows).toEqual([[2]])
  }, 150_000)
})
