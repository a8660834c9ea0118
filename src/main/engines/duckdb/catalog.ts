import { basename } from 'node:path'
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import picomatch from 'picomatch'
import { openLockedDuckDb } from './runner'
import { dataFileReader, isGlobPath, type DataFileFormat } from '../files/data-files'
import { quoteIdentifier, type DataSource, type TableName } from '../catalog'
import { duckCellJson, duckTypeName, isTextType } from './types'
import { PREVIEW_CELL_CAP, PREVIEW_ROWS, type TableContent } from '../table-content'

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
  return {
    schema: name.schema,
    table: name.table,
    columns: names.map((column, i) => ({ name: column, type: duckTypeName(types[i]) })),
    rowCount: Number(count.getRowsJson()[0][0]),
    preview: preview.map((row) => row.map((value, i) => ({ name: names[i], json: duckCellJson(types[i], value) })))
  }
}

/** Cuts long text in the engine, so a 10 MB cell is never copied out whole. */
function cappedText(column: string): string {
  const ref = quoteIdentifier(column)
  const text = `${ref}::VARCHAR`
  return `CASE WHEN length(${text}) > ${PREVIEW_CELL_CAP}
    THEN left(${text}, ${PREVIEW_CELL_CAP}) || '… [' || format('{:,}', length(${text}) - ${PREVIEW_CELL_CAP}) || ' more characters]'
    ELSE ${text} END AS ${ref}`
}
