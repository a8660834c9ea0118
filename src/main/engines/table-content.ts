import { formatCount } from '../../shared/format-count'

// What a catalog reader gives sync for one table, and the helpers that write preview cells the way nao's
// previews read (Python's json.dumps separators and float repr).

export interface ColumnInfo {
  name: string
  /** The type as columns.md shows it: nao's (ibis) name for local files, the engine's own for servers. */
  type: string
  /** False when the engine says NOT NULL; absent when the engine does not say. */
  nullable?: boolean
  /** Part of the primary key; `primaryKey.length > 1` for a composite key (every column of it). */
  primaryKey?: string[]
  /** A single-column UNIQUE constraint or unique index. */
  unique?: boolean
  /** Foreign keys from this column: `cars.id`, or `crm.customers.id` for another schema. */
  references?: string[]
  comment?: string
}

/** One preview row: column name → the cell already written as JSON text. */
export type PreviewRow = { name: string; json: string }[]

export interface TableContent {
  schema: string
  table: string
  columns: ColumnInfo[]
  rowCount: number
  preview: PreviewRow[]
  /** The table's own comment, where the engine has them. */
  comment?: string
}

/** Preview cells longer than this are cut, with a marker saying how much was left out. */
export const PREVIEW_CELL_CAP = 1_000
export const PREVIEW_ROWS = 10

/** A float as Python's repr writes it (33.0, 0.1, 1e-05, 1e+16), so previews read like nao's. */
export function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return '"NaN"'
  if (!Number.isFinite(value)) return value > 0 ? '"Infinity"' : '"-Infinity"'
  const [mantissa, exponentText] = value.toExponential().split('e')
  const exponent = Number(exponentText)
  if (exponent >= -4 && exponent < 16) {
    const fixed = String(value)
    return fixed.includes('.') || fixed.includes('e') ? fixed : `${fixed}.0`
  }
  const sign = exponent < 0 ? '-' : '+'
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`
}

/** A JSON value written with Python's separators (", " and ": "). */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value)
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`
  if (typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`)
      .join(', ')}}`
  }
  return JSON.stringify(String(value))
}

/** Cuts a long cell, keeping the start and saying how many characters were left out. */
export function capText(text: string, cap = PREVIEW_CELL_CAP): string {
  if (text.length <= cap) return text
  return `${text.slice(0, cap)}… [${formatCount(text.length - cap)} more characters]`
}

/** Caps a cell's JSON text: a cell too long becomes a JSON string with the marker. */
export function capJson(json: string, cap = PREVIEW_CELL_CAP): string {
  return json.length <= cap ? json : JSON.stringify(capText(json, cap))
}
