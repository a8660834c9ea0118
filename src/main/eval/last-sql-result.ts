import { z } from 'zod'
import type { ResultTable } from './compare'

// The evaluation's answer is the result of the agent's last successful execute_sql (SPEC §7), read from the
// run's stored tool calls.

const executeSqlData = z.object({
  sql: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  totalRows: z.number()
})

/** The result of the agent's last successful execute_sql, or null when it ran none. */
export function lastSqlResult(calls: ReadonlyArray<{ name: string; ok: boolean | null; data?: unknown }>): (ResultTable & { sql: string }) | null {
  for (const call of [...calls].reverse()) {
    if (call.name !== 'execute_sql' || !call.ok) continue
    const data = executeSqlData.safeParse(call.data)
    if (!data.success) continue
    if (data.data.totalRows > data.data.rows.length) {
      throw new Error(`the agent's last query returned ${data.data.totalRows} rows; only the first ${data.data.rows.length} were kept, so it cannot be compared`)
    }
    return { sql: data.data.sql, columns: data.data.columns, rows: data.data.rows }
  }
  return null
}
