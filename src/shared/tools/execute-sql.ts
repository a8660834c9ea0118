// `execute_sql`: what the model passes and the structured result the UI draws (the model reads a Markdown
// table made from it instead).

export type CellValue = string | number | boolean | null

export interface ExecuteSqlArgs {
  sql_query: string
  database_id?: string
}

export interface ExecuteSqlResult {
  /** The id charts and citations use to point at this result. */
  queryId: string
  databaseId: string
  sql: string
  engine: string
  columns: string[]
  /** The first rows only (at most the query store's row cap). */
  rows: CellValue[][]
  /** Every row the query produced, counted while streaming (a lower bound when truncatedAtBytes is set). */
  totalRows: number
  /** Rows shown to the model. */
  shownRows: number
  /** Set when reading stopped at this many bytes of cells. */
  truncatedAtBytes?: number
}
