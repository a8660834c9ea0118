import type { DataSource, TableName } from '../catalog'
import { quoteLiteral } from '../catalog'
import type { QueryResult } from '../query-result'
import type { ServerConnection } from '../server-config'
import { PREVIEW_CELL_CAP, PREVIEW_ROWS, pythonFloat, pythonJson, type ColumnInfo, type TableContent } from '../table-content'
import { createServerQueryHost } from '../query-process'

// A MySQL/MariaDB database as a sync source, read through the same read-only runner as execute_sql. The
// database is the only schema (`schema=<database>`). Types are the server's own (COLUMN_TYPE: `int(11)`,
// `varchar(120)`, `decimal(10,2)`), keys and comments come from information_schema, which shows a user the
// tables it may read; dates stay dates.

const SYNC_TIMEOUT_MS = 60_000
const CUT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob', 'json', 'enum', 'set', 'geometry'])
const NUMERIC_TYPES = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint', 'decimal', 'numeric', 'bit', 'year'])

interface ColumnRow {
  name: string
  dataType: string
  columnType: string
  nullable: boolean
  comment: string
}

export function openMysqlSource(server: ServerConnection, signal: AbortSignal): DataSource {
  const host = createServerQueryHost('mysql')
  const query = (sql: string, keepRows = 100_000): Promise<QueryResult> => host.run(server, { sql, keepRows, timeoutMs: SYNC_TIMEOUT_MS, signal })
  return {
    warnings: [],
    async listTables() {
      const result = await query(`SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1, 2`)
      return result.rows.map(([schema, table]) => ({ schema: String(schema), table: String(table) }))
    },
    async readTable(name: TableName): Promise<TableContent> {
      const where = `TABLE_SCHEMA = ${quoteLiteral(name.schema)} AND TABLE_NAME = ${quoteLiteral(name.table)}`
      const columnRows = await query(
        `SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, COLUMN_COMMENT FROM information_schema.COLUMNS WHERE ${where} ORDER BY ORDINAL_POSITION`
      )
      const columns: ColumnRow[] = columnRows.rows.map(([column, dataType, columnType, nullable, comment]) => ({
        name: String(column),
        dataType: String(dataType).toLowerCase(),
        columnType: String(columnType),
        nullable: nullable === 'YES',
        comment: String(comment ?? '')
      }))
      const keys = await readKeys(query, where, name.schema)
      const tableComment = (await query(`SELECT TABLE_COMMENT FROM information_schema.TABLES WHERE ${where}`, 1)).rows[0]?.[0]
      const from = `${quoteName(name.schema)}.${quoteName(name.table)}`
      const preview =
        columns.length === 0 ? [] : (await query(`SELECT ${columns.map(previewColumn).join(', ')} FROM ${from} LIMIT ${PREVIEW_ROWS}`, PREVIEW_ROWS)).rows
      const count = await query(`SELECT COUNT(*) FROM ${from}`, 1)
      return {
        schema: name.schema,
        table: name.table,
        columns: columns.map((column) => ({
          name: column.name,
          type: column.columnType,
          nullable: column.nullable,
          ...keys.of(column.name),
          ...(column.comment ? { comment: column.comment } : {})
        })),
        rowCount: Number(count.rows[0]?.[0] ?? 0),
        preview: preview.map((row) => row.map((value, i) => ({ name: columns[i].name, json: mysqlCellJson(columns[i], value) }))),
        ...(typeof tableComment === 'string' && tableComment !== '' ? { comment: tableComment } : {})
      }
    },
    close: () => host.close()
  }
}

type KeyFacts = Pick<ColumnInfo, 'primaryKey' | 'unique' | 'references'>

async function readKeys(query: (sql: string) => Promise<QueryResult>, where: string, schema: string): Promise<{ of: (column: string) => KeyFacts }> {
  const result = await query(
    `SELECT k.CONSTRAINT_NAME, c.CONSTRAINT_TYPE, k.COLUMN_NAME, k.REFERENCED_TABLE_SCHEMA, k.REFERENCED_TABLE_NAME, k.REFERENCED_COLUMN_NAME
     FROM information_schema.KEY_COLUMN_USAGE k
     JOIN information_schema.TABLE_CONSTRAINTS c
       ON c.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND c.TABLE_NAME = k.TABLE_NAME AND c.CONSTRAINT_NAME = k.CONSTRAINT_NAME
     WHERE k.${where.replace(' AND ', ' AND k.')} ORDER BY k.CONSTRAINT_NAME, k.ORDINAL_POSITION`
  )
  const byConstraint = new Map<string, { type: string; columns: string[]; targets: string[] }>()
  for (const [constraint, type, column, targetSchema, targetTable, targetColumn] of result.rows) {
    const key = String(constraint)
    const entry = byConstraint.get(key) ?? { type: String(type), columns: [], targets: [] }
    byConstraint.set(key, entry)
    entry.columns.push(String(column))
    if (targetTable !== null) entry.targets.push(`${targetSchema === schema ? '' : `${String(targetSchema)}.`}${String(targetTable)}.${String(targetColumn)}`)
  }
  const facts = new Map<string, KeyFacts>()
  const factsOf = (column: string): KeyFacts => {
    let entry = facts.get(column)
    if (!entry) facts.set(column, (entry = {}))
    return entry
  }
  for (const { type, columns, targets } of byConstraint.values()) {
    if (type === 'PRIMARY KEY') for (const column of columns) factsOf(column).primaryKey = columns
    if (type === 'UNIQUE' && columns.length === 1) factsOf(columns[0]).unique = true
    if (type === 'FOREIGN KEY') columns.forEach((column, i) => (factsOf(column).references ??= []).push(targets[i] ?? '?'))
  }
  return { of: (column) => facts.get(column) ?? {} }
}

function quoteName(name: string): string {
  return `\`${name.replaceAll('`', '``')}\``
}

/** Long text is cut on the server, so a 1 GB cell never crosses the wire whole. */
function previewColumn(column: ColumnRow): string {
  const ref = quoteName(column.name)
  if (!CUT_TYPES.has(column.dataType)) return ref
  // In the connection's character set, so a latin1 column and the marker's "…" can be joined.
  const text = `CONVERT(${ref} USING utf8mb4)`
  return `CASE WHEN CHAR_LENGTH(${text}) > ${PREVIEW_CELL_CAP}
    THEN CONCAT(LEFT(${text}, ${PREVIEW_CELL_CAP}), '… [', FORMAT(CHAR_LENGTH(${text}) - ${PREVIEW_CELL_CAP}, 0), ' more characters]')
    ELSE ${ref} END AS ${ref}`
}

function mysqlCellJson(column: ColumnRow, value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'number') return column.dataType === 'float' || column.dataType === 'double' ? pythonFloat(value) : String(value)
  const text = String(value)
  if (NUMERIC_TYPES.has(column.dataType) && /^-?\d+(\.\d+)?$/.test(text)) return text
  return pythonJson(text)
}
