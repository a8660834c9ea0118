import { basename, extname, relative } from 'node:path'
import { dataFileDatabaseName, dataFileFormat, dataFileReader, dataFileTableName, declaredDataFormat } from '../../engines/files/data-files'
import { readRegularFileSync } from '../../project/regular-file'
import { resolveInside, toProjectPath } from '../../project/safe-path'
import type { ProjectSnapshot } from '../../project/types'
import type { LockedDuckDb } from '../../engines/duckdb/runner'
import { createPostgresHost, type PostgresHost } from '../../engines/postgres/runner'
import { projectFileAccess } from '../../engines/duckdb/project-file-access'
import type { QueryRequest, QueryResult } from '../../engines/query-result'
import { createSqliteHost } from '../../engines/sqlite/runner'
import type { ServerConnection } from '../../project/types'

// The databases execute_sql can reach: the files and servers nao_config.yaml names, then database files
// found in the project, then (when the project holds data files) the project's files themselves through
// DuckDB. Files must be inside the project; a file's engine is chosen by its header, not its name.

export type Engine = 'duckdb' | 'sqlite' | 'postgres'

export interface LocalDatabase {
  /** What the model passes as database_id: the config name, or the file's project-relative path. */
  id: string
  engine: Engine
  /** Real absolute path, inside the project ('' for the project's data files and for servers). */
  path: string
  /** Project-relative path (or glob) of the file; for a server, `host:port/database`. */
  file: string
  /** Postgres: where and as whom to connect. */
  server?: ServerConnection
  /** Other names the model may use: the `database=` folder name sync gives it. */
  aliases?: string[]
}

export interface DatabasePool {
  list: () => LocalDatabase[]
  /** Finds the database for a database_id (name, file path, or file stem); the only one when absent. */
  find: (databaseId: string | undefined) => LocalDatabase
  run: (database: LocalDatabase, request: QueryRequest) => Promise<QueryResult>
  close: () => void
}

const DATABASE_EXTENSIONS = new Set(['.duckdb', '.ddb', '.db', '.sqlite', '.sqlite3'])
/** The id of the in-memory DuckDB that reads the project's data files (declared ones as views). */
export const PROJECT_FILES_ID = 'project_files'

export function createDatabasePool(project: ProjectSnapshot, projectFiles: readonly string[] = []): DatabasePool {
  const { databases, views } = discoverDatabases(project, projectFiles)
  const instances = new Map<string, Promise<LockedDuckDb>>()
  const sqlite = createSqliteHost()
  let postgres: PostgresHost | null = null
  // Computed on the first DuckDB query, not for every run that never queries.
  let access: ReturnType<typeof projectFileAccess> | null = null

  const find = (databaseId: string | undefined): LocalDatabase => {
    if (databases.length === 0) {
      throw new Error('This project has nothing to query: nao_config.yaml declares no database file, data file or Postgres server, and no DuckDB, SQLite, CSV, Parquet or JSON file was found.')
    }
    if (!databaseId) return databases[0]
    const wanted = databaseId.trim().toLowerCase()
    const match = databases.find((db) =>
      [db.id, db.file, basename(db.file), basename(db.file, extname(db.file)), ...(db.aliases ?? [])].some((name) => name.toLowerCase() === wanted)
    )
    if (!match) throw new Error(`Unknown database_id "${databaseId}". Available: ${databases.map((db) => db.id).join(', ')}.`)
    return match
  }

  const duckdb = (database: LocalDatabase): Promise<LockedDuckDb> => {
    const key = database.path
    let instance = instances.get(key)
    if (!instance) {
      access ??= projectFileAccess(project.root, projectFiles)
      const fileAccess = access
      // DuckDB's bindings load on the first query, not with the project (the CLI's prompt never needs them).
      instance = import('../../engines/duckdb/runner').then(({ openLockedDuckDb }) =>
        key === '' ? openLockedDuckDb(null, { ...fileAccess, views }) : openLockedDuckDb(key, fileAccess)
      )
      instances.set(key, instance)
      instance.catch(() => instances.delete(key))
    }
    return instance
  }

  return {
    list: () => databases,
    find,
    run: async (database, request) => {
      if (database.engine === 'sqlite') return sqlite.run(database.path, request)
      if (database.engine === 'postgres' && database.server) return (postgres ??= createPostgresHost()).run(database.server, request)
      const opened = await duckdb(database)
      const { runDuckDbQuery } = await import('../../engines/duckdb/runner')
      return runDuckDbQuery(opened, request)
    },
    close: () => {
      for (const instance of instances.values()) void instance.then((opened) => opened.instance.closeSync(), () => undefined)
      instances.clear()
      sqlite.close()
      postgres?.close()
    }
  }
}

function discoverDatabases(project: ProjectSnapshot, projectFiles: readonly string[]): { databases: LocalDatabase[]; views: Array<{ name: string; select: string }> } {
  const found: LocalDatabase[] = []
  const views: Array<{ name: string; select: string }> = []
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
  for (const config of project.databases) {
    if (config.server) {
      const { host, port, database } = config.server
      found.push({ id: config.name, engine: 'postgres', path: '', file: `${host}:${port}/${database}`, server: config.server, aliases: [database] })
      continue
    }
    const format = declaredDataFormat(config)
    if (format && config.path) {
      // A declared data file (or glob) is a view in the project-files database, under sync's table name.
      views.push({ name: dataFileTableName(config), select: `SELECT * FROM ${dataFileReader(config.path, format)}` })
      found.push({ id: config.name, engine: 'duckdb', path: '', file: relative(project.root, config.path).split('\\').join('/'), aliases: [dataFileDatabaseName(config)] })
      continue
    }
    if (config.path) add(config.name, config.path)
  }
  for (const file of projectFiles) if (DATABASE_EXTENSIONS.has(extname(file).toLowerCase())) add(file, file)
  // Every DuckDB database reads the project's files too; without one, tables kept as CSV or Parquet files
  // still get an engine.
  if (!found.some((database) => database.engine === 'duckdb') && projectFiles.some((file) => dataFileFormat(file) === 'csv' || dataFileFormat(file) === 'parquet')) {
    found.push({ id: PROJECT_FILES_ID, engine: 'duckdb', path: '', file: '.' })
  }
  return { databases: found, views }
}

/**
 * Reads the file header: SQLite files start with "SQLite format 3", DuckDB files carry "DUCK" at byte 8.
 * Only a regular file is opened: a named pipe declared as a database would otherwise block here for ever.
 */
export function engineOf(path: string): Engine | null {
  let header: Buffer
  try {
    header = readRegularFileSync(path, 16)
  } catch {
    return null
  }
  if (header.toString('latin1', 0, 15) === 'SQLite format 3') return 'sqlite'
  if (header.toString('latin1', 8, 12) === 'DUCK') return 'duckdb'
  return null
}
