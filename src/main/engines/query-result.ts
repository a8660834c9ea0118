/** A JSON-safe result cell, as results are stored and shown. */
import type { CellValue } from '../../shared/tools'

export type { CellValue }

/** What an engine returns for one query: the first rows, and how many there were in all. */
export interface QueryResult {
  columns: string[]
  rows: CellValue[][]
  totalRows: number
  /** Set when the byte budget stopped reading: `totalRows` then counts only the rows read before. */
  truncatedAtBytes?: number
}

export interface QueryRequest {
  sql: string
  /** Rows to keep; the rest are only counted. */
  keepRows: number
  /** Bytes of cells kept at most (default: DEFAULT_MAX_RESULT_BYTES); reading stops there. */
  maxBytes?: number
  /** Characters kept of one cell (default: DEFAULT_MAX_CELL_CHARS). */
  maxCellChars?: number
  timeoutMs: number
  signal: AbortSignal
}

export class QueryTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The query was stopped after ${timeoutMs / 1000} s (time limit). Narrow it (filters, LIMIT, aggregates) and retry.`)
    this.name = 'QueryTimeoutError'
  }
}

export class QueryCancelledError extends Error {
  constructor() {
    super('The query was cancelled.')
    this.name = 'QueryCancelledError'
  }
}

/** Read-only statements only: the engine classifies the statement, and the engine enforces read-only too. */
export class StatementRefusedError extends Error {
  override name = 'StatementRefusedError'
}

/** JSON-safe cell: big integers and dates become strings, nested values JSON text. */
export function toCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value)
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString()
  }
  if (value instanceof Date) return value.toISOString()
  if (value instanceof Uint8Array) return `<${value.length} bytes>`
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner))
  } catch {
    return String(value)
  }
}
