import { toCell, type CellValue, type QueryResult } from './query-result'
import { formatCount } from '../../shared/format-count'

// What one query may bring into the process. Rows are capped by count (keepRows), and by size: a result is
// kept only up to a byte budget, and a single cell only up to a number of characters, so a query returning
// gigabytes of text (SELECT repeat('x', 20000000) FROM range(250)) costs megabytes here. Every engine
// applies the same budget.

/** Bytes of cells one query may keep in memory (the store, charts, the UI). The model sees far less. */
export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024 * 1024
/** Characters kept of one cell; the rest is replaced by a marker. */
export const DEFAULT_MAX_CELL_CHARS = 10_000

export interface ResultLimits {
  keepRows: number
  maxBytes: number
  maxCellChars: number
}

/** Collects rows until the row cap, then only counts them; stops reading at the byte budget. */
export class ResultCollector {
  readonly rows: CellValue[][] = []
  totalRows = 0
  bytes = 0
  /** Set when the byte budget stopped the reading: the rows after that point were never read. */
  truncatedAtBytes: number | null = null

  constructor(private readonly limits: ResultLimits) {}

  /** False once the byte budget is spent: the caller stops reading. */
  get open(): boolean {
    return this.truncatedAtBytes === null
  }

  get wantsRows(): boolean {
    return this.open && this.rows.length < this.limits.keepRows
  }

  /** Adds one row (raw engine values); `alreadyCut`: columns the engine cut itself (with cutMarker). */
  add(values: readonly unknown[], alreadyCut?: ReadonlySet<number>): void {
    if (!this.open) return
    this.totalRows++
    if (this.rows.length >= this.limits.keepRows) return
    const row = values.map((value, column) => (alreadyCut?.has(column) ? toCell(value) : capCell(toCell(value), this.limits.maxCellChars)))
    const size = row.reduce<number>((sum, cell) => sum + cellBytes(cell), 0)
    if (this.bytes + size > this.limits.maxBytes) {
      this.totalRows--
      this.truncatedAtBytes = this.limits.maxBytes
      return
    }
    this.bytes += size
    this.rows.push(row)
  }

  /** Counts rows that are not kept (past the row cap). */
  count(rows: number): void {
    if (this.open) this.totalRows += rows
  }

  result(columns: string[]): QueryResult {
    return { columns, rows: this.rows, totalRows: this.totalRows, ...(this.truncatedAtBytes !== null ? { truncatedAtBytes: this.truncatedAtBytes } : {}) }
  }
}

export function capCell(cell: CellValue, maxChars: number): CellValue {
  if (typeof cell !== 'string' || cell.length <= maxChars) return cell
  // A plain slice would be a view that keeps the whole original string alive (20 MB per cell); copy it out.
  const kept = Buffer.from(cell.slice(0, maxChars), 'utf16le').toString('utf16le')
  return cutMarker(kept, cell.length - maxChars)
}

/** A cell's first characters and how many more there were, as every engine shows a cut cell. */
export function cutMarker(kept: string, omitted: number): string {
  return `${kept}… [${formatCount(omitted)} more characters]`
}

function cellBytes(cell: CellValue): number {
  return typeof cell === 'string' ? cell.length * 2 + 16 : 16
}

export function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
}
