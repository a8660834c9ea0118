import Database from 'better-sqlite3'
import { resolveNativeBinding } from '../../store/native-binding'
import { quoteIdentifier, type DataSource, type TableName } from '../catalog'
import { PREVIEW_CELL_CAP, PREVIEW_ROWS, pythonFloat, pythonJson, type ColumnInfo, type TableContent } from '../table-content'

// SQLite files, read with better-sqlite3 in read-only mode (types under nao's names; NOT NULL and keys from
// the table's PRAGMAs) (DuckDB's sqlite extension would have to be
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
  const records = info.map(recordOf)
  const primaryKey = records.filter((record) => Number(record.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk)).map((record) => String(record.name))
  const references = foreignKeys(db, name)
  const unique = uniqueColumns(db, name)
  const columns: ColumnInfo[] = records.map((record) => {
    const column = String(record.name)
    return {
      name: column,
      type: sqliteTypeName(String(record.type ?? '')),
      ...(Number(record.notnull) === 1 ? { nullable: false } : {}),
      ...(primaryKey.includes(column) ? { primaryKey } : {}),
      ...(unique.has(column) ? { unique: true } : {}),
      ...(references.has(column) ? { references: references.get(column) } : {})
    }
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

function recordOf(row: unknown): Record<string, unknown> {
  return row !== null && typeof row === 'object' ? Object.fromEntries(Object.entries(row)) : {}
}

/** Column → `table.column` targets, from PRAGMA foreign_key_list (a key with no target column names the target's primary key). */
function foreignKeys(db: Database.Database, name: TableName): Map<string, string[]> {
  const targets = new Map<string, string[]>()
  for (const row of db.prepare(`PRAGMA ${quoteIdentifier(name.schema)}.foreign_key_list(${quoteIdentifier(name.table)})`).all().map(recordOf)) {
    const column = String(row.from)
    const target = `${String(row.table)}.${row.to === null || row.to === undefined ? '(primary key)' : String(row.to)}`
    targets.set(column, [...(targets.get(column) ?? []), target])
  }
  return targets
}

/** Columns that alone carry a UNIQUE constraint (not the primary key's own index). */
function uniqueColumns(db: Database.Database, name: TableName): Set<string> {
  const columns = new Set<string>()
  const schema = quoteIdentifier(name.schema)
  for (const index of db.prepare(`PRAGMA ${schema}.index_list(${quoteIdentifier(name.table)})`).all().map(recordOf)) {
    if (Number(index.unique) !== 1 || index.origin === 'pk') continue
    const parts = db.prepare(`PRAGMA ${schema}.index_info(${quoteIdentifier(String(index.name))})`).all().map(recordOf)
    if (parts.length === 1) columns.add(String(parts[0].name))
  }
  return columns
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
