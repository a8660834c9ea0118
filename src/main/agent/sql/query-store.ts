// Results of execute_sql kept under a query_id for the run, so charts and citations can point at them.

import type { CellValue } from '../../engines/query-result'

export type { CellValue }

export interface StoredQuery {
  queryId: string
  databaseId: string
  sql: string
  columns: string[]
  /** The first rows only (at most the store's row cap). */
  rows: CellValue[][]
  /** Every row the query produced, counted while streaming. */
  totalRows: number
}

export interface QueryStore {
  nextId: () => string
  put: (query: StoredQuery) => void
  get: (queryId: string) => StoredQuery | undefined
}

/** An in-memory store; ids are `q1`, `q2`, … unless a prefix makes them unique across runs. */
export function createQueryStore(prefix = 'q'): QueryStore {
  const queries = new Map<string, StoredQuery>()
  let counter = 0
  return {
    nextId: () => `${prefix}${++counter}`,
    put: (query) => void queries.set(query.queryId, query),
    get: (queryId) => queries.get(queryId)
  }
}
