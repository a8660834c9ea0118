import { basename, extname } from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { quoteIdentifier, quoteLiteral, type DataSource, type TableName } from './data-source'
import { duckCellJson, duckTypeName, isTextType } from './duckdb-types'
import { PREVIEW_CELL_CAP, PREVIEW_ROWS, type TableContent } from './table-markdown'

// DuckDB database files, and CSV/Parquet files read through DuckDB as one table each. Database files are
// opened with access_mode READ_ONLY, so the engine itself refuses writes; data files are read from an
// in-memory database that is thrown away.

export async function openDuckDbFile(path: string): Promise<DataSource> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' })
  try {
    const connection = await instance.connect()
    return duckSource(instance, connection, [])
  } catch (error) {
    instance.closeSync()
    throw error
  }
}

export type DataFileFormat = 'csv' | 'parquet'

export function dataFileFormat(path: string): DataFileFormat | null {
  const extension = extname(path).toLowerCase()
  if (extension === '.csv' || extension === '.tsv') return 'csv'
  if (extension === '.parquet' || extension === '.pq') return 'parquet'
  return null
}

/** The table name a data file gets: its file name without the extension. */
export function dataFileTableName(path: string): string {
  return basename(path, extname(path))
}

export async function openDataFile(path: string, format: DataFileFormat): Promise<DataSource> {
  const instance = await DuckDBInstance.create(':memory:')
  try {
    const connection = await instance.connect()
    // Rejected CSV rows are kept aside (not fatal): a broken row must neither fail the whole file nor, as it
    // does without this option, mislead the dialect sniffer into reading every line as one column.
    const reader =
      format === 'csv' ? `read_csv(${quoteLiteral(path)}, store_rejects = true)` : `read_parquet(${quoteLiteral(path)})`
    const view = quoteIdentifier(dataFileTableName(path))
    await connection.run(`CREATE VIEW main.${view} AS SELECT * FROM ${reader}`)
    const warnings = format === 'csv' ? await rejectedRows(connection, view, path) : []
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
