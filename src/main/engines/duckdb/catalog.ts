import { basename } from 'node:path'
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import picomatch from 'picomatch'
import { openLockedDuckDb } from './runner'
import { dataFileReader, isGlobPath, type DataFileFormat } from '../files/data-files'
import { quoteIdentifier, quoteLiteral, type DataSource, type TableName } from '../catalog'
import { duckCellJson, duckTypeName, isTextType } from './types'
import { PREVIEW_CELL_CAP, PREVIEW_ROWS, type ColumnInfo, type TableContent } from '../table-content'

// DuckDB database files, and CSV/Parquet/JSON files read through DuckDB as one table each. Both are opened
// exactly as locked down as execute_sql's (openLockedDuckDb): a database file read-only, no file outside
// the project (a view over read_csv('/etc/passwd') fails instead of landing in preview.md), no network, no
// extension install, configuration locked. Data files are views in an in-memory database that is thrown away.

export async function openDuckDbFile(path: string, projectRoot: string): Promise<DataSource> {
  const { instance } = await openLockedDuckDb(path, { projectRoot, allowedPaths: [], allowedDirectories: [] })
  try {
    const connection = await instance.connect()
    return duckSource(instance, connection, [])
  } catch (error) {
    instance.closeSync()
    throw error
  }
}

/**
 * `path` is the real path of one file, or an absolute glob inside the project; only it (or the glob's
 * folder, which DuckDB checks after resolving symlinks) may be read.
 */
export async function openDataFile(path: string, format: DataFileFormat, table: string, projectRoot: string): Promise<DataSource> {
  const glob = isGlobPath(path)
  const folder = glob ? picomatch.scan(path).base : null
  const view = { name: table, select: `SELECT * FROM ${dataFileReader(path, format, 'store')}` }
  const { instance } = await openLockedDuckDb(null, {
    projectRoot,
    allowedPaths: glob ? [] : [path],
    allowedDirectories: folder ? [folder.endsWith('/') ? folder : `${folder}/`] : [],
    views: [view]
  })
  try {
    const connection = await instance.connect()
    const warnings = format === 'csv' ? await rejectedRows(connection, quoteIdentifier(table), path) : []
    return duckSource(instance, connection, warnings)
  } catch (error) {
    instance.closeSync()
    throw error
  }
}

async function rejectedRows(connection: DuckDBConnection, view: string, path: string): Promise<string[]> {
  await connection.run(`SELECT count(*) FROM main.${view}`)
  const rejects = await connection.runAndReadAll(
    `SELECT count(DISTINCT line)::INTEGER, min(line)::INTEGER, any_value(error_message)
     FROM reject_errors WHERE scan_id = (SELECT min(scan_id) FROM reject_errors)`
  )
  const [count, firstLine, message] = rejects.getRowsJson()[0] ?? []
  if (typeof count !== 'number' || count === 0) return []
  return [`${basename(path)}: ${count} malformed row(s) skipped, first at line ${String(firstLine)} (${String(message)})`]
}

function duckSource(instance: DuckDBInstance, connection: DuckDBConnection, warnings: string[]): DataSource {
  return {
    warnings,
    async listTables() {
      const reader = await connection.runAndReadAll(
        `SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = current_database() AND NOT internal
         UNION ALL
         SELECT schema_name, view_name FROM duckdb_views() WHERE database_name = current_database() AND NOT internal
         ORDER BY 1, 2`
      )
      return reader.getRowsJson().map(([schema, table]) => ({ schema: String(schema), table: String(table) }))
    },
    readTable: (name) => readDuckTable(connection, name),
    close() {
      connection.closeSync()
      instance.closeSync()
    }
  }
}

async function readDuckTable(connection: DuckDBConnection, name: TableName): Promise<TableContent> {
  const from = `${quoteIdentifier(name.schema)}.${quoteIdentifier(name.table)}`
  // Streamed reads: materialising even a 10-row result costs several times more (parallel scan set-up).
  const shape = await connection.streamAndReadUntil(`SELECT * FROM ${from} LIMIT 0`, 0)
  const names = shape.columnNames()
  const types = shape.columnTypes()
  const selectList = names.map((column, i) => (isTextType(types[i]) ? cappedText(column) : quoteIdentifier(column)))
  const preview =
    names.length === 0
      ? []
      : (await connection.streamAndReadUntil(`SELECT ${selectList.join(', ')} FROM ${from} LIMIT ${PREVIEW_ROWS}`, PREVIEW_ROWS)).getRowsJson()
  const count = await connection.streamAndReadUntil(`SELECT count(*)::DOUBLE FROM ${from}`, 1)
  const facts = await readColumnFacts(connection, name)
  return {
    schema: name.schema,
    table: name.table,
    columns: names.map((column, i) => ({ name: column, type: duckTypeName(types[i]), ...facts.of(column) })),
    rowCount: Number(count.getRowsJson()[0][0]),
    preview: preview.map((row) => row.map((value, i) => ({ name: names[i], json: duckCellJson(types[i], value) }))),
    ...(facts.tableComment ? { comment: facts.tableComment } : {})
  }
}

type ColumnFacts = Omit<ColumnInfo, 'name' | 'type'>

/** NOT NULL, keys and comments from DuckDB's catalog functions (a view has none of the first two). */
async function readColumnFacts(connection: DuckDBConnection, name: TableName): Promise<{ of: (column: string) => ColumnFacts; tableComment: string | null }> {
  const where = `database_name = current_database() AND schema_name = ${quoteLiteral(name.schema)} AND table_name = ${quoteLiteral(name.table)}`
  const facts = new Map<string, ColumnFacts>()
  const factsOf = (column: string): ColumnFacts => {
    let entry = facts.get(column)
    if (!entry) facts.set(column, (entry = {}))
    return entry
  }
  const columns = await connection.runAndReadAll(`SELECT column_name, is_nullable, comment FROM duckdb_columns() WHERE ${where}`)
  for (const [column, nullable, comment] of columns.getRowsJson()) {
    if (nullable === false) factsOf(String(column)).nullable = false
    if (typeof comment === 'string' && comment !== '') factsOf(String(column)).comment = comment
  }
  const constraints = await connection.runAndReadAll(
    `SELECT constraint_type, constraint_column_names, referenced_table, referenced_column_names FROM duckdb_constraints()
     WHERE ${where} AND constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY') ORDER BY constraint_index`
  )
  for (const [type, columnList, targetTable, targetList] of constraints.getRowsJson()) {
    const keyColumns = Array.isArray(columnList) ? columnList.map(String) : []
    const targets = Array.isArray(targetList) ? targetList.map(String) : []
    if (type === 'PRIMARY KEY') for (const column of keyColumns) factsOf(column).primaryKey = keyColumns
    if (type === 'UNIQUE' && keyColumns.length === 1) factsOf(keyColumns[0]).unique = true
    if (type === 'FOREIGN KEY') keyColumns.forEach((column, i) => (factsOf(column).references ??= []).push(`${String(targetTable)}.${targets[i] ?? '?'}`))
  }
  const table = await connection.runAndReadAll(
    `SELECT comment FROM duckdb_tables() WHERE ${where} UNION ALL SELECT comment FROM duckdb_views() WHERE ${where.replace('table_name', 'view_name')}`
  )
  const comment = table.getRowsJson()[0]?.[0]
  return { of: (column) => facts.get(column) ?? {}, tableComment: typeof comment === 'string' && comment !== '' ? comment : null }
}

/** Cuts long text in the engine, so a 10 MB cell is never copied out whole. */
function cappedText(column: string): string {
  const ref = quoteIdentifier(column)
  const text = `${ref}::VARCHAR`
  return `CASE WHEN length(${text}) > ${PREVIEW_CELL_CAP}
    THEN left(${text}, ${PREVIEW_CELL_CAP}) || '… [' || format('{:,}', length(${text}) - ${PREVIEW_CELL_CAP}) || ' more characters]'
    ELSE ${text} END AS ${ref}`
}
