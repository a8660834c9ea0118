import { describe, expect, it } from 'vitest'
import { openLockedDuckDb, runDuckDbQuery } from './runner'

// The locked instance's own settings, as the engine reports them (not as we passed them).

describe('a locked DuckDB', () => {
  const query = async (sql: string) => {
    const database = await openLockedDuckDb(null)
    try {
      return await runDuckDbQuery(database, { sql, keepRows: 10, timeoutMs: 10_000, signal: new AbortController().signal })
    } finally {
      database.instance.closeSync()
    }
  }

  it('uses at most 1 GB of buffer memory, and a query cannot raise that', async () => {
    const result = await query("SELECT current_setting('memory_limit') AS m")
    expect(result.rows[0][0]).toBe('953.6 MiB')
    await expect(query("SET memory_limit = '100GB'")).rejects.toThrow()
    await expect(query("SELECT set_config('memory_limit', '100GB')")).rejects.toThrow()
  })
})
