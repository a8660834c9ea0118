import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { isAbsolute, relative } from 'node:path'
import type { ContextAudit } from '../../shared/api'
import type { TableRef } from '../project/types'

// For a failing case: which context files the agent read, and which tables its final SQL touched whose
// metadata (columns.md, description.md, annotations.md) exists but was never read — a concrete cue for what
// context to add or point to in RULES.md. Table names come from DuckDB's own parser (json_serialize_sql),
// so CTEs, aliases and subqueries are told apart from tables; a query DuckDB cannot parse falls back to
// the names after FROM and JOIN.

export const METADATA_FILES = ['columns.md', 'description.md', 'annotations.md'] as const

export interface TableName {
  schema: string | null
  table: string
}

export interface SqlTableParser {
  tables(sql: string): Promise<TableName[]>
  close(): void
}

/** One in-memory DuckDB (no data, no external access) and one connection, reused for every query parsed. */
export function createSqlTableParser(): SqlTableParser {
  let opened: Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> | null = null
  const open = async () => {
    // Loaded on the first audit, not when the services start (the CLI's prompt never needs DuckDB).
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const instance = await DuckDBInstance.create(':memory:', { enable_external_access: 'false' })
    return { instance, connection: await instance.connect() }
  }
  // One query at a time on the shared connection (audits of two servers may overlap).
  let queue: Promise<unknown> = Promise.resolve()
  const parse = async (sql: string): Promise<TableName[]> => {
    try {
      const { connection } = await (opened ??= open())
      const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql])
      const parsed: unknown = JSON.parse(String(reader.getRows()[0]?.[0] ?? '{}'))
      if (isRecord(parsed) && parsed.error === false) return tablesInTree(parsed)
    } catch {
      // fall through to the textual reading
    }
    return tablesByPattern(sql)
  }
  return {
    tables(sql) {
      const result = queue.then(() => parse(sql))
      queue = result.catch(() => undefined)
      return result
    },
    close() {
      void opened?.then(({ instance, connection }) => {
        connection.closeSync()
        instance.closeSync()
      }, () => undefined)
      opened = null
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** BASE_TABLE nodes of the parse tree, minus the names of CTEs. */
export function tablesInTree(tree: unknown): TableName[] {
  const found: TableName[] = []
  const ctes = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!isRecord(node)) return
    if (node.type === 'BASE_TABLE' && typeof node.table_name === 'string') {
      found.push({ schema: typeof node.schema_name === 'string' && node.schema_name !== '' ? node.schema_name : null, table: node.table_name })
    }
    const cteMap = node.cte_map
    if (isRecord(cteMap) && Array.isArray(cteMap.map)) {
      for (const entry of cteMap.map) if (isRecord(entry) && typeof entry.key === 'string') ctes.add(entry.key.toLowerCase())
    }
    Object.values(node).forEach(visit)
  }
  visit(tree)
  return unique(found.filter((name) => name.schema !== null || !ctes.has(name.table.toLowerCase())))
}

const FROM_OR_JOIN = /\b(?:from|join)\s+((?:"[^"]+"|[\w$]+)(?:\s*\.\s*(?:"[^"]+"|[\w$]+)){0,2})/gi

export function tablesByPattern(sql: string): TableName[] {
  const found: TableName[] = []
  for (const match of sql.matchAll(FROM_OR_JOIN)) {
    const parts = match[1].split('.').map((part) => part.trim().replace(/^"|"$/g, ''))
    const table = parts[parts.length - 1]
    if (table.toLowerCase() === 'select') continue
    found.push({ schema: parts.length > 1 ? parts[parts.length - 2] : null, table })
  }
  return unique(found)
}

function unique(names: TableName[]): TableName[] {
  const seen = new Set<string>()
  return names.filter((name) => {
    const key = `${name.schema ?? ''}.${name.table}`.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Project-relative paths the agent read with the `read` tool, in order, without repeats. */
export function filesRead(root: string, calls: ReadonlyArray<{ name: string; args: Record<string, unknown>; ok: boolean | null }>): string[] {
  const files: string[] = []
  for (const call of calls) {
    if (call.name !== 'read' || call.ok === false || typeof call.args.file_path !== 'string') continue
    const path = normalizePath(root, call.args.file_path)
    if (!files.includes(path)) files.push(path)
  }
  return files
}

function normalizePath(root: string, path: string): string {
  const relativePath = isAbsolute(path) ? relative(root, path) : path
  return relativePath.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/{2,}/g, '/')
}

export function auditContext(input: { read: string[]; touched: TableName[]; tables: readonly TableRef[] }): ContextAudit {
  const read = new Set(input.read)
  return {
    filesRead: input.read,
    tables: input.touched.map((name) => {
      const ref = findTable(input.tables, name)
      const label = name.schema ? `${name.schema}.${name.table}` : name.table
      if (!ref) return { table: label, dir: null, unread: [] }
      const unread = METADATA_FILES.filter((file) => ref.files.includes(file) && !read.has(`${ref.dir}/${file}`))
      return { table: `${ref.schema}.${ref.table}`, dir: ref.dir, unread }
    })
  }
}

function findTable(tables: readonly TableRef[], name: TableName): TableRef | undefined {
  const matches = tables.filter((ref) => ref.table.toLowerCase() === name.table.toLowerCase())
  if (name.schema === null) return matches[0]
  return matches.find((ref) => ref.schema.toLowerCase() === name.schema?.toLowerCase()) ?? matches.find((ref) => ref.database.toLowerCase() === name.schema?.toLowerCase())
}
