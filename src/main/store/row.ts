import * as z from '../../shared/zod-mini'

// better-sqlite3 returns rows as `unknown`. These small readers give them types and fail loudly (naming the
// column) when the schema and the code disagree, instead of letting a wrong type travel into the UI.

export type Row = Record<string, unknown>

export function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null
}

export function toRow(value: unknown): Row {
  if (!isRow(value)) throw new Error(`expected a database row, got ${String(value)}`)
  return value
}

function mismatch(key: string, expected: string, value: unknown): Error {
  return new Error(`column ${key}: expected ${expected}, got ${value === null ? 'null' : typeof value}`)
}

export function text(row: Row, key: string): string {
  const value = row[key]
  if (typeof value !== 'string') throw mismatch(key, 'text', value)
  return value
}

export function textOrNull(row: Row, key: string): string | null {
  const value = row[key]
  if (value === null || value === undefined) return null
  if (typeof value !== 'string') throw mismatch(key, 'text', value)
  return value
}

/** Any SQLite number (INTEGER or REAL). */
export function integer(row: Row, key: string): number {
  return numberIn(row[key], key)
}

/** A plucked column's value (a statement's `.pluck()`: the value itself, no row object) as a number. */
export function numberIn(value: unknown, key: string): number {
  if (typeof value !== 'number') throw mismatch(key, 'number', value)
  return value
}

export function integerOrNull(row: Row, key: string): number | null {
  const value = row[key]
  if (value === null || value === undefined) return null
  if (typeof value !== 'number') throw mismatch(key, 'number', value)
  return value
}

export function flag(row: Row, key: string): boolean {
  return integer(row, key) === 1
}

export function flagOrNull(row: Row, key: string): boolean | null {
  const value = integerOrNull(row, key)
  return value === null ? null : value === 1
}

/** Parses a JSON column and checks it against `schema`. */
export function json<T>(row: Row, key: string, schema: z.core.$ZodType<T>): T {
  const parsed = z.safeParse(schema, JSON.parse(text(row, key)))
  if (!parsed.success) throw new Error(`column ${key}: stored JSON has an unexpected shape: ${parsed.error.message}`)
  return parsed.data
}

export function jsonOrNull<T>(row: Row, key: string, schema: z.core.$ZodType<T>): T | null {
  return row[key] === null || row[key] === undefined ? null : json(row, key, schema)
}

export function toJson(value: unknown): string {
  return JSON.stringify(value)
}

export function bit(value: boolean): number {
  return value ? 1 : 0
}
