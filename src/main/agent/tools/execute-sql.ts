import * as z from '../../../shared/zod-mini'
import type { ExecuteSqlArgs, ExecuteSqlResult } from '../../../shared/tools'
import type { StoredQuery } from '../sql/query-store'
import { formatMegabytes } from '../../engines/result-budget'
import { createTool } from './create-tool'

export const executeSqlInput = () =>
  z.object({
    sql_query: z.string().check(z.minLength(1), z.describe('The SQL to run (read-only; the dialect of the chosen database: DuckDB, SQLite or Postgres).')),
    database_id: z.optional(z.string()).check(z.describe('Which database to query (its name from nao_config.yaml or its file path). Defaults to the first one.'))
  }) satisfies z.ZodMiniType<ExecuteSqlArgs>

export const executeSqlTool = createTool({
  name: 'execute_sql',
  description:
    'Run a read-only SQL query on a project database (DuckDB or SQLite file, CSV/Parquet/JSON files in the project through DuckDB, or a Postgres server) and get the first rows back. ' +
    'The full result is kept under the returned query_id for charts and citations.',
  inputSchema: executeSqlInput,
  async execute(input, ctx): Promise<ExecuteSqlResult> {
    const database = ctx.databases.find(input.database_id)
    const { truncatedAtBytes, ...result } = await ctx.databases.run(database, {
      sql: input.sql_query,
      keepRows: ctx.limits.maxRowsStored,
      maxBytes: ctx.limits.maxResultBytes,
      maxCellChars: ctx.limits.maxCellChars,
      timeoutMs: ctx.limits.sqlTimeoutMs,
      signal: ctx.signal
    })
    const stored: StoredQuery = { queryId: ctx.queryStore.nextId(), databaseId: database.id, sql: input.sql_query, ...result }
    ctx.queryStore.put(stored)
    return {
      ...stored,
      engine: database.engine,
      shownRows: Math.min(result.rows.length, ctx.limits.maxRowsShown),
      ...(truncatedAtBytes !== undefined ? { truncatedAtBytes } : {})
    }
  },
  toModelOutput: (result) => {
    const header = `query_id: ${result.queryId} (database ${result.databaseId}, ${result.engine})`
    if (result.columns.length === 0) return `${header}\nThe statement ran and returned no columns.`
    if (result.totalRows === 0) return `${header}\nNo rows. Columns: ${result.columns.join(', ')}`
    const table = markdownTable(result.columns, result.rows.slice(0, result.shownRows))
    if (result.truncatedAtBytes !== undefined) {
      const marker = `\n… result truncated at ${formatMegabytes(result.truncatedAtBytes)}: ${result.rows.length} rows kept, the rest was not read (the total is unknown). Select fewer or shorter columns, aggregate or filter in SQL.`
      return `${header}\nat least ${result.totalRows} rows\n\n${table}${marker}`
    }
    const more = result.totalRows - result.shownRows
    const marker = more > 0 ? `\n… ${more} more rows (${result.totalRows} total). Aggregate or filter in SQL rather than reading rows.` : ''
    return `${header}\n${result.totalRows} row${result.totalRows === 1 ? '' : 's'}\n\n${table}${marker}`
  }
})

const MAX_CELL_CHARS = 200
const CUT_MARKER = /… \[([\d,]+) more characters\]$/

function markdownTable(columns: string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  const cell = (value: unknown): string => {
    const text = (value === null ? 'NULL' : String(value)).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
    if (text.length <= MAX_CELL_CHARS) return text
    // A cell the engine budget already cut says how much it lost: count that too.
    const cut = CUT_MARKER.exec(text)
    const more = cut ? text.length - cut[0].length - MAX_CELL_CHARS + Number(cut[1].replaceAll(',', '')) : text.length - MAX_CELL_CHARS
    return `${text.slice(0, MAX_CELL_CHARS)}… (${more} more characters)`
  }
  const lines = [`| ${columns.map(cell).join(' | ')} |`, `| ${columns.map(() => '---').join(' | ')} |`]
  for (const row of rows) lines.push(`| ${row.map(cell).join(' | ')} |`)
  return lines.join('\n')
}
