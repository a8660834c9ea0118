import { createServerQueryHost, type ServerQueryHost } from '../query-process'
import type { QueryResult } from '../query-result'
import type { ServerConnection } from '../server-config'
import { quoteIdentifier, quoteLiteral, type DataSource, type TableName } from '../catalog'
import { PREVIEW_CELL_CAP, PREVIEW_ROWS, pythonFloat, pythonJson, type ColumnInfo, type TableContent } from '../table-content'

// A Postgres server as a sync source. Every read goes through the same runner as execute_sql: a read-only
// transaction, a statement timeout, cancel on stop, the same byte budget. Tables come from
// information_schema (system schemas left out; only `schema_name` when the config sets one); columns, keys
// and comments from pg_catalog, under Postgres's own type names; dates stay dates.

const SYNC_TIMEOUT_MS = 60_000

interface ColumnRow {
  name: string
  /** format_type(): `bigint`, `character varying(120)`, `numeric(10,2)`, `text[]`. */
  formatted: string
  /** pg_type.typcategory: N numeric, S string, D date/time, B boolean, A array, U user-defined, … */
  category: string
  typeName: string
  nullable: boolean
  comment: string | null
}

/** Text-like categories whose preview cells are cut on the server. */
const CUT_CATEGORIES = new Set(['S', 'A', 'U', 'E', 'G', 'I', 'R', 'X'])
const SEPARATOR = '\u001f'

export function openPostgresSource(server: ServerConnection, signal: AbortSignal): DataSource {
  const host: ServerQueryHost = createServerQueryHost('postgres')
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
      // pg_catalog, not information_schema: a role with SELECT only sees no constraints in the latter.
      const relation = `(SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ${quoteLiteral(name.schema)} AND c.relname = ${quoteLiteral(name.table)})`
      const columnRows = await query(
        `SELECT a.attname, format_type(a.atttypid, a.atttypmod), t.typcategory, t.typname, NOT a.attnotnull, col_description(a.attrelid, a.attnum)
         FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
         WHERE a.attrelid = ${relation} AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`
      )
      const columns: ColumnRow[] = columnRows.rows.map(([column, formatted, category, typeName, nullable, comment]) => ({
        name: String(column),
        formatted: String(formatted),
        category: String(category),
        typeName: String(typeName),
        nullable: nullable === true || nullable === 't',
        comment: comment === null ? null : String(comment)
      }))
      const keys = await readKeys(query, relation, name.schema)
      const tableComment = (await query(`SELECT obj_description(${relation}, 'pg_class')`, 1)).rows[0]?.[0]
      const from = `${quoteIdentifier(name.schema)}.${quoteIdentifier(name.table)}`
      const preview =
        columns.length === 0 ? [] : (await query(`SELECT ${columns.map(previewColumn).join(', ')} FROM ${from} LIMIT ${PREVIEW_ROWS}`, PREVIEW_ROWS)).rows
      const count = await query(`SELECT count(*) FROM ${from}`, 1)
      return {
        schema: name.schema,
        table: name.table,
        columns: columns.map((column) => ({
          name: column.name,
          type: postgresTypeName(column.formatted),
          nullable: column.nullable,
          ...keys.of(column.name),
          ...(column.comment ? { comment: column.comment } : {})
        })),
        rowCount: Number(count.rows[0]?.[0] ?? 0),
        preview: preview.map((row) => row.map((value, i) => ({ name: columns[i].name, json: postgresCellJson(columns[i], value) }))),
        ...(typeof tableComment === 'string' && tableComment !== '' ? { comment: tableComment } : {})
      }
    },
    close: () => host.close()
  }
}

type KeyFacts = Pick<ColumnInfo, 'primaryKey' | 'unique' | 'references'>

/** Primary, unique and foreign keys of one table, from pg_constraint (readable by a SELECT-only role). */
async function readKeys(query: (sql: string) => Promise<QueryResult>, relation: string, schema: string): Promise<{ of: (column: string) => KeyFacts }> {
  const names = (keys: string, table: string) =>
    `array_to_string(ARRAY(SELECT a.attname FROM unnest(con.${keys}) WITH ORDINALITY k(num, pos)
       JOIN pg_attribute a ON a.attrelid = con.${table} AND a.attnum = k.num ORDER BY k.pos), E'${SEPARATOR}')`
  const result = await query(
    `SELECT con.contype, ${names('conkey', 'conrelid')}, fn.nspname, fc.relname, ${names('confkey', 'confrelid')}
     FROM pg_constraint con
     LEFT JOIN pg_class fc ON fc.oid = con.confrelid LEFT JOIN pg_namespace fn ON fn.oid = fc.relnamespace
     WHERE con.conrelid = ${relation} AND con.contype IN ('p', 'u', 'f') ORDER BY con.contype, con.conname`
  )
  const facts = new Map<string, KeyFacts>()
  const factsOf = (column: string): KeyFacts => {
    let entry = facts.get(column)
    if (!entry) facts.set(column, (entry = {}))
    return entry
  }
  for (const [type, columnList, targetSchema, targetTable, targetList] of result.rows) {
    const columns = String(columnList ?? '').split(SEPARATOR).filter(Boolean)
    if (type === 'p') for (const column of columns) factsOf(column).primaryKey = columns
    if (type === 'u' && columns.length === 1) factsOf(columns[0]).unique = true
    if (type === 'f') {
      const targets = String(targetList ?? '').split(SEPARATOR)
      const table = targetSchema === schema ? String(targetTable) : `${String(targetSchema)}.${String(targetTable)}`
      columns.forEach((column, i) => (factsOf(column).references ??= []).push(`${table}.${targets[i] ?? '?'}`))
    }
  }
  return { of: (column) => facts.get(column) ?? {} }
}

/** Long text is cut on the server, so a 1 GB cell never crosses the wire whole. */
function previewColumn(column: ColumnRow): string {
  const ref = quoteIdentifier(column.name)
  if (!CUT_CATEGORIES.has(column.category) && column.typeName !== 'bytea') return ref
  const text = `${ref}::text`
  return `CASE WHEN length(${text}) > ${PREVIEW_CELL_CAP}
    THEN left(${text}, ${PREVIEW_CELL_CAP}) || '… [' || to_char(length(${text}) - ${PREVIEW_CELL_CAP}, 'FM999,999,999,999') || ' more characters]'
    ELSE ${text} END AS ${ref}`
}

function postgresCellJson(column: ColumnRow, value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'number') return ['float4', 'float8'].includes(column.typeName) ? pythonFloat(value) : String(value)
  if (typeof value === 'boolean') return pythonJson(value)
  const text = String(value)
  if (column.category === 'N' && /^-?\d+(\.\d+)?$/.test(text)) return text
  return pythonJson(text)
}

/** Postgres's own long names shortened to the ones people write in casts; everything else as format_type gives it. */
const SHORT_NAMES: Array<[RegExp, string]> = [
  [/^character varying/, 'varchar'],
  [/^character\b/, 'char'],
  [/^timestamp(\(\d+\))? without time zone/, 'timestamp$1'],
  [/^timestamp(\(\d+\))? with time zone/, 'timestamptz$1'],
  [/^time(\(\d+\))? without time zone/, 'time$1'],
  [/^time(\(\d+\))? with time zone/, 'timetz$1']
]

/** A Postgres column type under the engine's own name: `bigint`, `varchar(120)`, `numeric(10,2)`, `date`. */
export function postgresTypeName(formatted: string): string {
  for (const [pattern, short] of SHORT_NAMES) if (pattern.test(formatted)) return formatted.replace(pattern, short)
  return formatted
}
