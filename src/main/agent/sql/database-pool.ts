import { openSync, readSync, closeSync } from 'node:fs'
import { basename, extname } from 'node:path'
import type { DuckDBInstance } from '@duckdb/node-api'
import { resolveInside, toProjectPath } from '../../project/safe-path'
import type { ProjectSnapshot } from '../../project/types'
import type { QueryRequest, QueryResult } from './query-result'
import { createSqliteHost } from './sqlite-runner'

// The databases execute_sql can reach: the files nao_config.yaml names, then database files found in the
// project. Each must be inside the project; the engine is chosen by the file's header, not its name.

export type Engine = 'duckdb' | 'sqlite'

export interface LocalDatabase {
  /** What the model passes as database_id: the config name, or the file's project-relative path. */
  id: string
  engine: Engine
  /** Real absolute path, inside the project. */
  path: string
  /** Project-relative path. */
  file: string
}

export interface DatabasePool {
  list: () => LocalDatabase[]
  /** Finds the database for a database_id (name, file path, or file stem); the only one when absent. */
  find: (databaseId: string | undefined) => LocalDatabase
  run: (database: LocalDatabase, request: QueryRequest) => Promise<QueryResult>
  close: () => void
}

const DATABASE_EXTENSIONS = new Set(['.duckdb', '.ddb', '.db', '.sqlite', '.sqlite3'])

export function createDatabasePool(project: ProjectSnapshot, projectFiles: readonly string[] = []): DatabasePool {
  const databases = discoverDatabases(project, projectFiles)
  const instances = new Map<string, Promise<DuckDBInstance>>()
  const sqlite = createSqliteHost()

  const find = (databaseId: string | undefined): LocalDatabase => {
    if (databases.length === 0) {
      throw new Error('This project has no local DuckDB or SQLite file to query (nao_config.yaml names none and none was found). Other connection types cannot run offline.')
    }
    if (!databaseId) return databases[0]
    const wanted = databaseId.trim().toLowerCase()
    const match = databases.find((db) =>
      [db.id, db.file, basename(db.file), basename(db.file, extname(db.file))].some((name) => name.toLowerCase() === wanted)
    )
    if (!match) throw new Error(`Unknown database_id "${databaseId}". Available: ${databases.map((db) => db.id).join(', ')}.`)
    return match
  }

  return {
    list: () => databases,
    find,
    run: async (database, request) => {
      if (database.engine === 'sqlite') return sqlite.run(database.path, request)
      // DuckDB's bindings load on the first query, not with the project (the CLI's prompt never needs them).
      const { openLockedDuckDb, runDuckDbQuery } = await import('./duckdb-runner')
      let instance = instances.get(database.path)
      if (!instance) {
        instance = openLockedDuckDb(database.path)
        instances.set(database.path, instance)
        instance.catch(() => instances.delete(database.path))
      }
      return runDuckDbQuery(await instance, request)
    },
    close: () => {
      for (const instance of instances.values()) void instance.then((opened) => opened.closeSync(), () => undefined)
      instances.clear()
      sqlite.close()
    }
  }
}

function discoverDatabases(project: ProjectSnapshot, projectFiles: readonly string[]): LocalDatabase[] {
  const found: LocalDatabase[] = []
  const seen = new Set<string>()
  const add = (id: string, candidate: string): void => {
    let path: string
    try {
      path = resolveInside(project.root, candidate)
    } catch {
      return
    }
    const engine = engineOf(path)
    if (!engine || seen.has(path)) return
    seen.add(path)
    found.push({ id, engine, path, file: toProjectPath(project.root, path) })
  }
  for (const config of project.databases) if (config.path) add(config.name, config.path)
  for (const file of projectFiles) if (DATABASE_EXTENSIONS.has(extname(file).toLowerCase())) add(file, file)
  return found
}

/** Reads the file header: SQLite files start with "SQLite format 3", DuckDB files carry "DUCK" at byte 8. */
export function engineOf(path: string): Engine | null {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    const header = Buffer.alloc(16)
    readSync(fd, header, 0, 16, 0)
    if (header.toString('latin1', 0, 15) === 'SQLite format 3') return 'sqlite'
    if (header.toString('latin1', 8, 12) === 'DUCK') return 'duckdb'
    return null
  } catch {
    return null
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
