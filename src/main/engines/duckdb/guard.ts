import { isAbsolute, join } from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { StatementRefusedError } from '../query-result'

// What a DuckDB query may do is decided on DuckDB's own parse tree (json_serialize_sql), never on the text:
// only SELECT statements (which include WITH, FROM-first, DESCRIBE, SHOW, SUMMARIZE) serialise, and
// every table function they call must be one that only reads. Side-effect functions that ignore
// lock_configuration (enable_logging writes log files or stdout from any later query and can abort the
// process; query() runs arbitrary SQL text) are refused before the statement is bound.
//
// The same tree gives the exact position of each file path a query names, so a project-relative path
// ('data/sales.csv', read_parquet('data/*.parquet')) is rewritten to an absolute one inside the project:
// DuckDB resolves relative paths against the process's working folder, not the project.

/** Table functions that only read (data files inside the allowed folders, catalog metadata, generators). */
const READING_TABLE_FUNCTIONS = new Set([
  'read_csv', 'read_csv_auto', 'read_json', 'read_json_auto', 'read_json_objects', 'read_json_objects_auto',
  'read_ndjson', 'read_ndjson_auto', 'read_ndjson_objects', 'read_parquet', 'parquet_scan', 'parquet_schema',
  'parquet_metadata', 'parquet_file_metadata', 'parquet_kv_metadata', 'parquet_bloom_probe', 'read_text',
  'read_blob', 'glob', 'sniff_csv', 'range', 'generate_series', 'unnest', 'repeat', 'repeat_row', 'json_each',
  'json_tree', 'duckdb_columns', 'duckdb_constraints', 'duckdb_databases', 'duckdb_dependencies',
  'duckdb_functions', 'duckdb_indexes', 'duckdb_keywords', 'duckdb_schemas', 'duckdb_sequences',
  'duckdb_tables', 'duckdb_types', 'duckdb_views', 'duckdb_settings', 'show', 'show_tables',
  'show_tables_expanded', 'show_databases', 'summary', 'table_info', 'pragma_table_info', 'pragma_version',
  'pragma_show', 'pragma_collations', 'pragma_database_size', 'pragma_storage_info', 'pragma_platform',
  'storage_info', 'database_size', 'version', 'platform', 'functions', 'test_all_types', 'pg_timezone_names',
  'icu_calendar_names', 'collations'
])

/** Scalar functions with effects beyond the query (or that run SQL text): refused wherever they appear. */
const REFUSED_FUNCTIONS = new Set([
  'query', 'query_table', 'json_execute_serialized_sql', 'write_log', 'enable_logging', 'disable_logging',
  'truncate_duckdb_logs', 'checkpoint', 'force_checkpoint', 'setseed'
])

/** Table functions whose first argument is a file path (or a list of them). */
const FILE_READERS = new Set([
  'read_csv', 'read_csv_auto', 'read_json', 'read_json_auto', 'read_json_objects', 'read_json_objects_auto',
  'read_ndjson', 'read_ndjson_auto', 'read_ndjson_objects', 'read_parquet', 'parquet_scan', 'parquet_schema',
  'parquet_metadata', 'parquet_file_metadata', 'parquet_kv_metadata', 'parquet_bloom_probe', 'read_text',
  'read_blob', 'glob', 'sniff_csv'
])

const FILE_LIKE_NAME = /[/\\*]|\.(csv|tsv|txt|parquet|pq|json|jsonl|ndjson|gz|zst)$/i

export const READ_ONLY_HINT = 'Only read queries run here: SELECT, WITH, FROM, DESCRIBE, SHOW, SUMMARIZE (use SELECT * FROM fn() rather than CALL fn()).'

interface PathLiteral {
  /** UTF-8 byte offset of the literal in the query text. */
  location: number
  value: string
}

/**
 * Parses `sql` with DuckDB, refuses anything that is not a plain read, and returns the SQL to run: the same
 * text, with relative file paths made absolute under `projectRoot` (when given).
 */
export async function vetDuckDbQuery(connection: DuckDBConnection, sql: string, projectRoot: string | null): Promise<string> {
  const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql])
  const tree: unknown = JSON.parse(String(reader.getRowsJson()[0]?.[0] ?? '{}'))
  if (!isRecord(tree)) throw new StatementRefusedError('DuckDB could not parse the query.')
  if (tree.error === true) {
    const message = String(tree.error_message ?? 'unreadable query')
    if (tree.error_type === 'not implemented') throw new StatementRefusedError(`${READ_ONLY_HINT} The database is opened read-only.`)
    throw new StatementRefusedError(message)
  }
  const statements = Array.isArray(tree.statements) ? tree.statements : []
  if (statements.length === 0) throw new StatementRefusedError('The query is empty.')
  const paths: PathLiteral[] = []
  walk(tree, paths)
  return projectRoot ? rewritePaths(sql, paths, projectRoot) : sql
}

/**
 * Views and macros stored in a database file run whatever they call when a query names them, so they are
 * vetted like a query when the file is opened: a database whose definitions call enable_logging(), query()
 * or a table function that is not a read is refused as a whole, with the view named.
 */
export async function vetStoredDefinitions(connection: DuckDBConnection): Promise<void> {
  const views = await connection.runAndReadAll(
    `SELECT 'view ' || view_name, sql FROM duckdb_views() WHERE NOT internal AND database_name = current_database()
     UNION ALL
     SELECT 'macro ' || function_name, CASE WHEN function_type = 'table_macro' THEN macro_definition ELSE 'SELECT ' || macro_definition END
     FROM duckdb_functions() WHERE function_type IN ('macro', 'table_macro') AND NOT internal AND database_name = current_database()`
  )
  for (const [label, definition] of views.getRowsJson()) {
    const tree = await parseDefinition(connection, String(definition ?? ''))
    try {
      if (tree === null) throw new StatementRefusedError('its definition could not be read back')
      walk(tree, [])
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      throw new StatementRefusedError(`This database is not opened: its ${String(label)} does more than read (${why})`)
    }
  }
}

/** The parse tree of a stored definition: a view's `CREATE VIEW name AS <select>` or a macro's select. */
async function parseDefinition(connection: DuckDBConnection, definition: string): Promise<unknown> {
  const candidates = definition.startsWith('CREATE ') ? [...definition.matchAll(/ AS /g)].map((match) => definition.slice(match.index + 4)) : [definition]
  for (const candidate of candidates) {
    const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [candidate])
    const tree: unknown = JSON.parse(String(reader.getRowsJson()[0]?.[0] ?? '{}'))
    if (isRecord(tree) && tree.error !== true) return tree
  }
  return null
}

function walk(node: unknown, paths: PathLiteral[]): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, paths)
    return
  }
  if (!isRecord(node)) return
  if (node.type === 'TABLE_FUNCTION' && isRecord(node.function)) {
    const name = functionName(node.function)
    if (!READING_TABLE_FUNCTIONS.has(name)) {
      throw new StatementRefusedError(`The table function ${name}() is not allowed here: only functions that read data can run. ${READ_ONLY_HINT}`)
    }
    if (FILE_READERS.has(name) && Array.isArray(node.function.children)) collectConstants(node.function.children[0], paths)
  }
  if (node.class === 'FUNCTION') {
    const name = functionName(node)
    if (REFUSED_FUNCTIONS.has(name)) throw new StatementRefusedError(`The function ${name}() is not allowed here: it has effects beyond reading. ${READ_ONLY_HINT}`)
  }
  if (node.type === 'BASE_TABLE' && node.schema_name === '' && typeof node.table_name === 'string' && FILE_LIKE_NAME.test(node.table_name)) {
    if (typeof node.query_location === 'number') paths.push({ location: node.query_location, value: node.table_name })
  }
  for (const value of Object.values(node)) walk(value, paths)
}

function functionName(node: Record<string, unknown>): string {
  return String(node.function_name ?? '').toLowerCase()
}

/** A path argument: a string constant, or a list of them. Computed paths are left to the engine's guard. */
function collectConstants(argument: unknown, paths: PathLiteral[]): void {
  if (!isRecord(argument)) return
  if (argument.class === 'CONSTANT' && isRecord(argument.value) && typeof argument.value.value === 'string' && typeof argument.query_location === 'number') {
    paths.push({ location: argument.query_location, value: argument.value.value })
  } else if (argument.class === 'FUNCTION' && functionName(argument) === 'list_value' && Array.isArray(argument.children)) {
    for (const child of argument.children) collectConstants(child, paths)
  }
}

function rewritePaths(sql: string, paths: PathLiteral[], projectRoot: string): string {
  const bytes = Buffer.from(sql, 'utf8')
  const edits: Array<{ start: number; end: number; text: string }> = []
  for (const path of paths) {
    if (path.value === '' || isAbsolute(path.value) || /^[a-z][a-z0-9+.-]*:\/\//i.test(path.value) || path.value.startsWith('~')) continue
    const quote = bytes[path.location]
    if (quote !== 0x27 && quote !== 0x22) continue // only '…' and "…" tokens are rewritten
    const end = closingQuote(bytes, path.location, quote)
    if (end < 0) continue
    const char = String.fromCharCode(quote)
    const absolute = join(projectRoot, path.value)
    edits.push({ start: path.location, end: end + 1, text: char + absolute.split(char).join(char + char) + char })
  }
  if (edits.length === 0) return sql
  edits.sort((a, b) => b.start - a.start)
  let result = bytes
  for (const edit of edits) result = Buffer.concat([result.subarray(0, edit.start), Buffer.from(edit.text, 'utf8'), result.subarray(edit.end)])
  return result.toString('utf8')
}

/** Index of the quote that closes the literal opened at `start` (a doubled quote is an escaped one). */
function closingQuote(bytes: Buffer, start: number, quote: number): number {
  for (let index = start + 1; index < bytes.length; index++) {
    if (bytes[index] !== quote) continue
    if (bytes[index + 1] === quote) {
      index++
      continue
    }
    return index
  }
  return -1
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
