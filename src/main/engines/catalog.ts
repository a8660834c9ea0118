import { basename, extname } from 'node:path'
import type { TableContent } from './table-content'

/** A schema-qualified table (or view) of one database. */
export interface TableName {
  schema: string
  table: string
}

/** An open database that sync reads tables from. Every implementation opens its file read-only. */
export interface DataSource {
  listTables(): Promise<TableName[]>
  readTable(name: TableName): Promise<TableContent>
  /** Things worth telling the user that did not stop the sync (e.g. CSV rows skipped). */
  warnings: string[]
  close(): void
}

/** `"name"` with inner quotes doubled: identifiers come from the database and may contain anything. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/** `'text'` with inner quotes doubled. */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/** The stem of a declared database file: `shop.duckdb` is `database=shop` (the entry's name without a path). */
export function fileStem(config: { path: string | null; name: string }): string {
  return config.path ? basename(config.path, extname(config.path)) : config.name
}
