import { z } from 'zod'
import type { ResultTable } from './compare'

// The evaluation's answer is the result of the agent's last successful execute_sql (SPEC §7), read from the
// run's stored tool calls, with the database it ran on.

const executeSqlData = z.object({
  sql: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  totalRows: z.number(),
  databaseId: z.string().optional()
})

export interface LastSqlResult extends ResultTable {
  sql: string
  /** The database id the query ran on (recorded by execute_sql), else the database_id it asked for. */
  databaseId: string | undefined
}

/** The result of the agent's last successful execute_sql, or null when it ran none. */
export function lastSqlResult(calls: ReadonlyArray<{ name: string; args?: Record<string, unknown>; ok: boolean | null; data?: unknown }>): LastSqlResult | null {
  for (const call of [...calls].reverse()) {
    if (call.name !== 'execute_sql' || !call.ok) continue
    const data = executeSqlData.safeParse(call.data)
    if (!data.success) continue
    if (data.data.totalRows > data.data.rows.length) {
      throw new Error(`the agent's last query returned ${data.data.totalRows} rows; only the first ${data.data.rows.length} were kept, so it cannot be compared`)
    }
    const asked = call.args?.database_id
    const databaseId = data.data.databaseId ?? (typeof asked === 'string' ? asked : undefined)
    return { sql: data.data.sql, columns: data.data.columns, rows: data.data.rows, databaseId }
  }
  return null
}

/**
 * Where the agent's last successful execute_sql ran: its database id (undefined when it named none and the
 * record does not say), or null when no execute_sql succeeded. Unlike lastSqlResult it never throws: the
 * expected SQL follows the answer's database even when the answer is too big to compare.
 */
export function lastSqlDatabase(calls: ReadonlyArray<{ name: string; args?: Record<string, unknown>; ok: boolean | null; data?: unknown }>): string | undefined | null {
  for (const call of [...calls].reverse()) {
    if (call.name !== 'execute_sql' || !call.ok) continue
    const data = executeSqlData.safeParse(call.data)
    if (!data.success) continue
    const asked = call.args?.database_id
    return data.data.databaseId ?? (typeof asked === 'string' ? asked : undefined)
  }
  return null
}
