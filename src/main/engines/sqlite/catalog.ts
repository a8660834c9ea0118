import Database from 'better-sqlite3'
import { resolveNativeBinding } from '../../store/native-binding'
import { quoteIdentifier, type DataSource, type TableName } from '../catalog'
import { PREVIEW_CELL_CAP, PREVIEW_ROWS, pythonFloat, pythonJson, type TableContent } from '../table-content'

// SQLite files, read with better-sqlite3 in read-only mode (DuckDB's sqlite extension would have to be
// downloaded, and Glassbox works offline).

export function openSqliteFile(path: string): DataSource {
  // The Electron app loads its own build of better-sqlite3 (see store/native-binding.ts).
  const db = new Database(path, { readonly: true, fileMustExist: true, nativeBinding: resolveNativeBinding(undefined) })
  try {
    // A corrupt or non-SQLite file opens fine and fails on first read: read now, so it is reported as the
    // database's error rather than as one per table.
    db.prepare('SELECT count(*) FROM sqlite_master').get()
  } catch (error) {
    db.close()
    throw error
  }
  return {
    warnings: [],
    async listTables() {
      const rows = db
        .prepare(
          `SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`
        )
        .pluck()
        .all()
      return rows.map((table) => ({ schema: 'main', table: String(table) }))
    },
    readTable: async (name) => readSqliteTable(db, name),
    close: () => db.close()
  }
}

function readSqliteTable(db: Database.Database, name: TableName): TableContent {
  const from = `${quoteIdentifier(name.schema)}.${quoteIdentifier(name.table)}`
  const info = db.prepare(`PRAGMA ${quoteIdentifier(name.schema)}.table_info(${quoteIdentifier(name.table)})`).all()
  const columns = info.map((row) => {
    const record = row !== null && typeof row === 'object' ? Object.fromEntries(Object.entries(row)) : {}
    return { name: String(record.name), type: sqliteTypeName(String(record.type ?? '')) }
  })
  const selectList = columns.map((column) => cappedCell(column.name))
  const preview =
    columns.length === 0
      ? []
      : db.prepare(`SELECT ${selectList.join(', ')} FROM ${from} LIMIT ${PREVIEW_ROWS}`).raw().safeIntegers().all()
  const rowCount = Number(db.prepare(`SELECT count(*) FROM ${from}`).pluck().get())
  return {
    schema: name.schema,
    table: name.table,
    columns,
    rowCount,
    preview: preview.map((row) =>
      (Array.isArray(row) ? row : []).map((value: unknown, i: number) => ({ name: columns[i].name, json: sqliteCellJson(value) }))
    )
  }
}

function cappedCell(column: string): string {
  const ref = quoteIdentifier(column)
  return `CASE WHEN typeof(${ref}) IN ('text', 'blob') AND length(${ref}) > ${PREVIEW_CELL_CAP}
    THEN substr(CAST(${ref} AS TEXT), 1, ${PREVIEW_CELL_CAP}) || '… [' || printf('%,d', length(${ref}) - ${PREVIEW_CELL_CAP}) || ' more characters]'
    ELSE ${ref} END`
}

function sqliteCellJson(value: unknown): string {
  if (typeof value === 'number') return pythonFloat(value)
  if (value instanceof Uint8Array) return JSON.stringify(`<${value.length} bytes>`)
  return pythonJson(value)
}

/** A declared SQLite type under nao's (ibis) names, by SQLite's own affinity rules. */
export function sqliteTypeName(declared: string): string {
  const upper = declared.toUpperCase()
  if (upper.includes('BOOL')) return 'boolean'
  if (upper.includes('DATETIME') || upper.includes('TIMESTAMP')) return 'timestamp'
  if (upper === 'DATE') return 'date'
  if (upper.includes('INT')) return 'int64'
  if (upper.includes('CHAR') || upper.includes('CLOB') || upper.includes('TEXT')) return 'string'
  if (upper.includes('BLOB') || upper === '') return 'binary'
  if (upper.includes('REAL') || upper.includes('FLOA') || upper.includes('DOUB')) return 'float64'
  const decimal = /^(?:DECIMAL|NUMERIC)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)/.exec(upper)
  if (decimal) return `decimal(${decimal[1]}, ${decimal[2]})`
  return 'decimal'
}
