import { createPostgresHost, type PostgresHost } from './runner'
import type { QueryResult } from '../query-result'
import type { ServerConnection } from '../../project/types'
import { quoteIdentifier, quoteLiteral, type DataSource, type TableName } from '../catalog'
import { PREVIEW_CELL_CAP, PREVIEW_ROWS, pythonFloat, pythonJson, type TableContent } from '../../data/table-markdown'

// A Postgres server as a sync source. Every read goes through the same runner as execute_sql: a read-only
// transaction, a statement timeout, cancel on stop, the same byte budget. Tables come from
// information_schema (system schemas left out; only `schema_name` when the config sets one).

const SYNC_TIMEOUT_MS = 60_000

interface ColumnRow {
  name: string
  dataType: string
  udtName: string
  precision: number | null
  scale: number | null
}

const TEXT_TYPES = new Set(['text', 'character varying', 'character', 'json', 'jsonb', 'xml', 'bytea', 'USER-DEFINED', 'ARRAY'])

export function openPostgresSource(server: ServerConnection, signal: AbortSignal): DataSource {
  const host: PostgresHost = createPostgresHost()
  const query = (sql: string, keepRows = 100_000): Promise<QueryResult> =>
    host.run(server, { sql, keepRows, timeoutMs: SYNC_TIMEOUT_MS, signal })
  return {
    warnings: [],
    async listTables() {
      const onlySchema = server.schemaName ? `AND table_schema = ${quoteLiteral(server.schemaName)}` : ''
      const result = await query(
        `SELECT table_schema, table_name FROM information_schema.tables
         WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg\\_%' ${onlySchema}
         ORDER BY 1, 2`
      )
      return result.rows.map(([schema, table]) => ({ schema: String(schema), table: String(table) }))
    },
    async readTable(name: TableName): Promise<TableContent> {
      const columnRows = await query(
        `SELECT column_name, data_type, udt_name, numeric_precision, numeric_scale FROM information_schema.columns
         WHERE table_schema = ${quoteLiteral(name.schema)} AND table_name = ${quoteLiteral(name.table)} ORDER BY ordinal_position`
      )
      const columns: ColumnRow[] = columnRows.rows.map(([column, dataType, udtName, precision, scale]) => ({
        name: String(column),
        dataType: String(dataType),
        udtName: String(udtName),
        precision: precision === null ? null : Number(precision),
        scale: scale === null ? null : Number(scale)
      }))
      const from = `${quoteIdentifier(name.schema)}.${quoteIdentifier(name.table)}`
      const preview =
        columns.length === 0 ? [] : (await query(`SELECT ${columns.map(previewColumn).join(', ')} FROM ${from} LIMIT ${PREVIEW_ROWS}`, PREVIEW_ROWS)).rows
      const count = await query(`SELECT count(*) FROM ${from}`, 1)
      return {
        schema: name.schema,
        table: name.table,
        columns: columns.map((column) => ({ name: column.name, type: postgresTypeName(column) })),
        rowCount: Number(count.rows[0]?.[0] ?? 0),
        preview: preview.map((row) => row.map((value, i) => ({ name: columns[i].name, json: postgresCellJson(columns[i], value) })))
      }
    },
    close: () => host.close()
  }
}

/** Long text is cut on the server, so a 1 GB cell never crosses the wire whole. */
function previewColumn(column: ColumnRow): string {
  const ref = quoteIdentifier(column.name)
  if (!TEXT_TYPES.has(column.dataType)) return ref
  const text = `${ref}::text`
  return `CASE WHEN length(${text}) > ${PREVIEW_CELL_CAP}
    THEN left(${text}, ${PREVIEW_CELL_CAP}) || '… [' || to_char(length(${text}) - ${PREVIEW_CELL_CAP}, 'FM999,999,999,999') || ' more characters]'
    ELSE ${text} END AS ${ref}`
}

function postgresCellJson(column: ColumnRow, value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'number') return ['real', 'double precision'].includes(column.dataType) ? pythonFloat(value) : String(value)
  if (typeof value === 'boolean') return pythonJson(value)
  const text = String(value)
  if ((column.dataType === 'bigint' || column.dataType === 'numeric') && /^-?\d+(\.\d+)?$/.test(text)) return text
  // nao's previews come through pandas, which shows a date as a midnight timestamp.
  if (column.dataType === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(text)) return JSON.stringify(`${text} 00:00:00`)
  return pythonJson(text)
}

const SIMPLE_TYPES: Record<string, string> = {
  smallint: 'int16',
  integer: 'int32',
  bigint: 'int64',
  real: 'float32',
  'double precision': 'float64',
  boolean: 'boolean',
  text: 'string',
  'character varying': 'string',
  character: 'string',
  date: 'date',
  'timestamp without time zone': 'timestamp(6)',
  'timestamp with time zone': "timestamp('UTC', 6)",
  'time without time zone': 'time',
  'time with time zone': 'time',
  interval: "interval('us')",
  json: 'json',
  jsonb: 'json',
  uuid: 'uuid',
  bytea: 'binary'
}

const UDT_TYPES: Record<string, string> = { int2: 'int16', int4: 'int32', int8: 'int64', float4: 'float32', float8: 'float64', text: 'string', varchar: 'string', bool: 'boolean', date: 'date', numeric: 'decimal', uuid: 'uuid', json: 'json', jsonb: 'json' }

/** A Postgres column type under nao's (ibis) names. */
export function postgresTypeName(column: Pick<ColumnRow, 'dataType' | 'udtName' | 'precision' | 'scale'>): string {
  if (column.dataType === 'numeric') return column.precision !== null ? `decimal(${column.precision}, ${column.scale ?? 0})` : 'decimal'
  if (column.dataType === 'ARRAY') return `array<${UDT_TYPES[column.udtName.replace(/^_/, '')] ?? column.udtName.replace(/^_/, '')}>`
  return SIMPLE_TYPES[column.dataType] ?? column.dataType.toLowerCase()
}
