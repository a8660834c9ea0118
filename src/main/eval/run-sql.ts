import { engineOf, type DatabasePool, type LocalDatabase } from '../agent/sql/database-pool'
import type { QueryHost } from '../engines/engine'
import type { QueryResult } from '../engines/query-result'
import { engineById } from '../engines/registry'
import type { EvalDatabases } from './run-evaluation'

// Runs an evaluation's expected SQL on the project's database, through the same locked-down, read-only
// engines as the agent's execute_sql (so an expected query can no more write than the model's can).

export interface SqlTable {
  columns: string[]
  rows: unknown[][]
}

export interface SqlRunner {
  run: (sql: string) => Promise<SqlTable>
  close: () => void
}

const MAX_ROWS = 100_000
const TIMEOUT_MS = 60_000

/** Keeps the database open across queries; `close` when done. */
export function createSqlRunner(dbPath: string): SqlRunner {
  const engine = engineById(engineOf(dbPath) ?? '')
  if (!engine) throw new Error(`${dbPath} is not a database file Glassbox can open`)
  const database: LocalDatabase = { id: dbPath, engine: engine.id, path: dbPath, file: dbPath }
  // Opened on the first query, with no access to any other file.
  let host: QueryHost | null = null
  return {
    async run(sql) {
      const request = { sql, keepRows: MAX_ROWS, timeoutMs: TIMEOUT_MS, signal: new AbortController().signal }
      host ??= engine.createHost({ root: null, files: [], databases: [] })
      return comparable(await host.run(database, request))
    },
    close() {
      host?.close()
    }
  }
}

/** Expected SQL on a database the agent's pool already has open (no second engine to start per evaluation). */
export function poolSqlRunner(pool: DatabasePool, database: LocalDatabase): SqlRunner['run'] {
  return async (sql) => comparable(await pool.run(database, { sql, keepRows: MAX_ROWS, timeoutMs: TIMEOUT_MS, signal: new AbortController().signal }))
}

function comparable(result: QueryResult): SqlTable {
  if (result.totalRows > result.rows.length) {
    throw new Error(`the result has ${result.totalRows} rows; evaluation compares at most ${MAX_ROWS}`)
  }
  return { columns: result.columns, rows: result.rows }
}

/** One query, read-only, on a database file (DuckDB, SQLite). */
export async function runSqlReadOnly(dbPath: string, sql: string): Promise<SqlTable> {
  const runner = createSqlRunner(dbPath)
  try {
    return await runner.run(sql)
  } finally {
    runner.close()
  }
}

/**
 * The evaluation's databases for DuckDB/SQLite files named by id (declaration order: the first is where a
 * query without database_id runs), each kept open until `close`. The app uses the agent's pool instead;
 * this serves the bench and tests that judge cases without a project session.
 */
export function fileDatabases(files: Record<string, string>): EvalDatabases & { close: () => void } {
  const names = Object.keys(files)
  const runners = new Map(names.map((name) => [name, createSqlRunner(files[name])]))
  const resolve = (name: string | undefined): string => {
    if (name === undefined) {
      if (names.length === 0) throw new Error('there is no database')
      return names[0]
    }
    const found = names.find((candidate) => candidate.toLowerCase() === name.trim().toLowerCase())
    if (!found) throw new Error(`Unknown database_id "${name}". Available: ${names.join(', ')}.`)
    return found
  }
  return {
    names,
    resolve,
    run: (database, sql) => {
      const runner = runners.get(resolve(database))
      if (!runner) throw new Error(`Unknown database "${database}"`)
      return runner.run(sql)
    },
    close: () => runners.forEach((runner) => runner.close())
  }
}
