import { DuckDBInstance, JsonDuckDBValueConverter, StatementType, type DuckDBConnection } from '@duckdb/node-api'
import {
  QueryCancelledError,
  QueryTimeoutError,
  StatementRefusedError,
  toCell,
  type QueryRequest,
  type QueryResult
} from './query-result'
import type { CellValue } from './query-store'

// DuckDB opened so that the ENGINE refuses writes and reaches nothing outside its own file: read-only
// access mode, no external access (no COPY TO, ATTACH, read_csv of other files or URLs), no extension
// install or autoload, and the configuration locked so a query cannot switch any of that back on.
export const LOCKED_DOWN_DUCKDB_OPTIONS: Record<string, string> = {
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoload_known_extensions: 'false',
  autoinstall_known_extensions: 'false',
  allow_community_extensions: 'false',
  allow_unsigned_extensions: 'false',
  lock_configuration: 'true',
  // Spilling would write <file>.tmp next to the data, inside the user's project: a query too big for memory
  // fails instead.
  max_temp_directory_size: '0B'
}

// Statement kinds that only read. PRAGMA and SET change session state (and PRAGMA enable_profiling prints
// to stdout), so they are refused even though the locked engine would keep them harmless.
const READ_STATEMENTS = new Set<StatementType>([StatementType.SELECT, StatementType.EXPLAIN, StatementType.CALL])

export async function openLockedDuckDb(path: string): Promise<DuckDBInstance> {
  return DuckDBInstance.create(path, LOCKED_DOWN_DUCKDB_OPTIONS)
}

/** Runs the statements of `sql` in order on a fresh connection and returns the last one's result. */
export async function runDuckDbQuery(instance: DuckDBInstance, request: QueryRequest): Promise<QueryResult> {
  const connection = await instance.connect()
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
    const result = await runStatements(connection, request)
    // An interrupt during fetchChunk can end the stream early instead of throwing: never pass that off as
    // the whole result.
    if (stopped === 'timeout') throw new QueryTimeoutError(request.timeoutMs)
    if (stopped === 'cancel') throw new QueryCancelledError()
    return result
  } catch (error) {
    if (stopped === 'timeout') throw new QueryTimeoutError(request.timeoutMs)
    if (stopped === 'cancel') throw new QueryCancelledError()
    throw error
  } finally {
    clearTimeout(timer)
    request.signal.removeEventListener('abort', onAbort)
    connection.closeSync()
  }
}

async function runStatements(connection: DuckDBConnection, request: QueryRequest): Promise<QueryResult> {
  const statements = await connection.extractStatements(request.sql)
  if (statements.count === 0) throw new StatementRefusedError('The query is empty.')
  let result: QueryResult = { columns: [], rows: [], totalRows: 0 }
  for (let index = 0; index < statements.count; index++) {
    const prepared = await statements.prepare(index)
    if (!READ_STATEMENTS.has(prepared.statementType)) {
      throw new StatementRefusedError(
        `Only read queries can run here (SELECT, WITH, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN); this is a ${StatementType[prepared.statementType]} statement. The database is opened read-only.`
      )
    }
    const streamed = await prepared.stream()
    const columns = streamed.deduplicatedColumnNames()
    const rows: CellValue[][] = []
    let totalRows = 0
    // Chunks are fetched one at a time: only the kept rows are converted, the rest are counted and dropped,
    // so a ten-million-row result never sits in memory.
    for (;;) {
      const chunk = await streamed.fetchChunk()
      if (!chunk || chunk.rowCount === 0) break
      for (let row = 0; row < chunk.rowCount && rows.length < request.keepRows; row++) {
        rows.push(chunk.convertRowValues(row, JsonDuckDBValueConverter).map(toCell))
      }
      totalRows += chunk.rowCount
    }
    result = { columns, rows, totalRows }
  }
  return result
}
