import { DuckDBInstance, JsonDuckDBValueConverter, StatementType, type DuckDBConnection, type DuckDBDataChunk } from '@duckdb/node-api'
import { READ_ONLY_HINT, vetDuckDbQuery, vetStoredDefinitions } from './guard'
import { QueryCancelledError, QueryTimeoutError, StatementRefusedError, type QueryRequest, type QueryResult } from '../query-result'
import { DEFAULT_MAX_CELL_CHARS, DEFAULT_MAX_RESULT_BYTES, ResultCollector } from '../result-budget'

/** The buffer memory one DuckDB instance may use (each open database file is one instance). */
const DUCKDB_MEMORY_LIMIT = '1GB'

// DuckDB opened so that the ENGINE refuses writes and reaches nothing outside the project: read-only access
// mode for database files, external access off except for the exact project files and folders it is
// given (allowed_paths / allowed_directories, which DuckDB checks after resolving symlinks), no extension
// install or autoload, and the configuration locked so a query cannot switch any of that back on.
// execute_sql, evaluations and sync all open DuckDB through here.
const CREATE_OPTIONS: Record<string, string> = {
  autoload_known_extensions: 'false',
  autoinstall_known_extensions: 'false',
  allow_community_extensions: 'false',
  allow_unsigned_extensions: 'false',
  // Spilling would write <file>.tmp next to the data, inside the user's project: a query too big for memory
  // fails instead.
  max_temp_directory_size: '0B',
  // DuckDB runs inside the app's process, and by default takes up to 80% of the machine's memory: a query
  // past this limit is an "Out of Memory" tool error, and the app stays within bounds.
  memory_limit: DUCKDB_MEMORY_LIMIT
}

/** The options a locked instance ends up with (after `openLockedDuckDb` has finished its set-up). */
export const LOCKED_DOWN_DUCKDB_OPTIONS: Record<string, string> = {
  ...CREATE_OPTIONS,
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  lock_configuration: 'true'
}

export interface DuckDbAccess {
  /** Relative file paths in queries are resolved against this folder (the project's real path). */
  projectRoot: string | null
  /** Absolute files the engine may read (each a real path inside the project). */
  allowedPaths: readonly string[]
  /** Absolute folders (ending in '/') the engine may read anything in. */
  allowedDirectories: readonly string[]
  /** Views created before the lock, e.g. a declared CSV under its table name. */
  views?: ReadonlyArray<{ name: string; select: string }>
}

export const NO_FILE_ACCESS: DuckDbAccess = { projectRoot: null, allowedPaths: [], allowedDirectories: [] }

/** A locked DuckDB: a database file opened read-only, or (path null) an in-memory one for data files. */
export interface LockedDuckDb {
  instance: DuckDBInstance
  projectRoot: string | null
}

export async function openLockedDuckDb(path: string | null, access: DuckDbAccess = NO_FILE_ACCESS): Promise<LockedDuckDb> {
  const options = path === null ? CREATE_OPTIONS : { ...CREATE_OPTIONS, access_mode: 'READ_ONLY' }
  const instance = await DuckDBInstance.create(path ?? ':memory:', options)
  try {
    const setup = await instance.connect()
    try {
      if (access.allowedPaths.length > 0) await setup.run(`SET allowed_paths = ${sqlList(access.allowedPaths)}`)
      if (access.allowedDirectories.length > 0) await setup.run(`SET allowed_directories = ${sqlList(access.allowedDirectories)}`)
      if (path !== null) await vetStoredDefinitions(setup)
      await setup.run('SET enable_external_access = false')
      for (const view of access.views ?? []) {
        // One unreadable file must not take the others down: its table is simply absent (sync reports why).
        await setup.run(`CREATE VIEW main.${quoteName(view.name)} AS ${view.select}`).catch(() => undefined)
      }
      await setup.run('SET lock_configuration = true')
    } finally {
      setup.closeSync()
    }
    return { instance, projectRoot: access.projectRoot }
  } catch (error) {
    instance.closeSync()
    throw error
  }
}

function sqlList(values: readonly string[]): string {
  return `[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ')}]`
}

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/** Runs the statements of `sql` in order on a fresh connection and returns the last one's result. */
export async function runDuckDbQuery(database: LockedDuckDb, request: QueryRequest): Promise<QueryResult> {
  const connection = await database.instance.connect()
  let stopped: 'timeout' | 'cancel' | null = null
  const stop = (why: 'timeout' | 'cancel'): void => {
    stopped ??= why
    connection.interrupt()
  }
  const onAbort = (): void => stop('cancel')
  if (request.signal.aborted) throw new QueryCancelledError()
  request.signal.addEventListener('abort', onAbort, { once: true })
  const timer = setTimeout(() => stop('timeout'), request.timeoutMs)
  try {
    const result = await runStatements(connection, request, database.projectRoot)
    // An interrupt during fetchChunk can end the stream early instead of throwing: never pass that off as
    // the whole result.
    if (stopped === 'timeout') throw new QueryTimeoutError(request.timeoutMs)
    if (stopped === 'cancel') throw new QueryCancelledError()
    return result
  } catch (error) {
    if (stopped === 'timeout') throw new QueryTimeoutError(request.timeoutMs)
    if (stopped === 'cancel') throw new QueryCancelledError()
    // Whatever the engine threw (a permission, an out-of-memory, a binder error) is a tool error with its
    // own message, never an exception that escapes the run.
    if (error instanceof Error) throw error
    throw new Error(String(error))
  } finally {
    clearTimeout(timer)
    request.signal.removeEventListener('abort', onAbort)
    connection.closeSync()
  }
}

async function runStatements(connection: DuckDBConnection, request: QueryRequest, projectRoot: string | null): Promise<QueryResult> {
  const sql = await vetDuckDbQuery(connection, request.sql, projectRoot)
  const statements = await connection.extractStatements(sql)
  if (statements.count === 0) throw new StatementRefusedError('The query is empty.')
  let result: QueryResult = { columns: [], rows: [], totalRows: 0 }
  for (let index = 0; index < statements.count; index++) {
    const prepared = await statements.prepare(index)
    // The parse tree already said SELECT; the prepared statement's own type says it again.
    if (prepared.statementType !== StatementType.SELECT) {
      throw new StatementRefusedError(`${READ_ONLY_HINT} This is a ${StatementType[prepared.statementType]} statement.`)
    }
    const streamed = await prepared.stream()
    const columns = streamed.deduplicatedColumnNames()
    const collector = new ResultCollector({
      keepRows: request.keepRows,
      maxBytes: request.maxBytes ?? DEFAULT_MAX_RESULT_BYTES,
      maxCellChars: request.maxCellChars ?? DEFAULT_MAX_CELL_CHARS
    })
    // Chunks are fetched one at a time: only the kept rows are converted, the rest are counted and dropped,
    // so a ten-million-row result never sits in memory; at the byte budget reading stops altogether.
    while (collector.open) {
      const chunk = await streamed.fetchChunk()
      if (!chunk || chunk.rowCount === 0) break
      let row = 0
      for (; row < chunk.rowCount && collector.wantsRows; row++) collector.add(rowValues(chunk, row))
      if (collector.open) collector.count(chunk.rowCount - row)
    }
    result = collector.result(columns)
  }
  return result
}

/**
 * One row's values. Each cell is read through a one-item slice of its vector: a vector caches every item it
 * hands out, so reading 250 cells of 20 MB straight from the chunk would keep 5 GB of strings alive; the
 * slice's cache dies with the slice, and the cell is cut before the next one is read.
 */
function rowValues(chunk: DuckDBDataChunk, row: number): unknown[] {
  const values: unknown[] = []
  for (let column = 0; column < chunk.columnCount; column++) {
    const vector = chunk.getColumnVector(column).slice(row, 1)
    values.push(JsonDuckDBValueConverter(vector.getItem(0), vector.type, JsonDuckDBValueConverter))
  }
  return values
}
