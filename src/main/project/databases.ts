import type { Diagnostic } from '../../shared/prompt'
import type { ProjectTree } from './tree'
import type { Connection, TableRef } from './types'

// Connections and tables come from folder names alone:
// databases/type=<type>/database=<db>/schema=<schema>/table=<table>/{columns.md,preview.md,…}

export const DATABASES_FOLDER = 'databases'

const LEVELS = ['type', 'database', 'schema', 'table'] as const

export interface DatabaseLayout {
  connections: Connection[]
  tables: TableRef[]
  diagnostics: Diagnostic[]
}

/** Reads the `databases/` layout out of the tree. */
export function readDatabaseLayout(tree: ProjectTree): DatabaseLayout {
  const connections = new Map<string, Connection>()
  const tables = new Map<string, TableRef>()
  const diagnostics: Diagnostic[] = []
  const root = tree.get(DATABASES_FOLDER)
  if (root && root.kind !== 'dir') {
    diagnostics.push({ file: DATABASES_FOLDER, problem: 'is not a folder; no connections or tables are read from it' })
    return { connections: [], tables: [], diagnostics }
  }
  const prefix = DATABASES_FOLDER + '/'
  for (const [path, entry] of tree) {
    if (!path.startsWith(prefix)) continue
    const segments = path.slice(prefix.length).split('/')
    const name = segments[segments.length - 1]
    if (name.startsWith('.')) continue
    const isFolder = entry.kind === 'dir'
    if (segments.length <= LEVELS.length) {
      const level = LEVELS[segments.length - 1]
      if (!isFolder) {
        const what = entry.kind === 'symlink' ? 'a symlink (not followed)' : 'a file'
        diagnostics.push({ file: path, problem: `is ${what} where a \`${level}=<name>\` folder is expected; ignored` })
        continue
      }
      if (!name.startsWith(level + '=')) {
        diagnostics.push({ file: path, problem: `folder name does not start with \`${level}=\`; ignored` })
        continue
      }
    }
    const values = segments.slice(0, LEVELS.length).map((segment, index) => valueOf(segment, LEVELS[index]))
    if (values.some((value) => value === '')) continue
    const [type, database, schema, table] = values
    if (segments.length === 2) connections.set(`${type}\u0000${database}`, { type, database })
    if (segments.length === 4) {
      const dir = `${prefix}${segments.join('/')}`
      if (!tables.has(dir)) tables.set(dir, { type, database, schema, table, dir, files: [] })
    }
    const isReadableFile = entry.kind === 'file' || (entry.kind === 'symlink' && entry.resolves === 'file')
    if (segments.length === 5 && isReadableFile) {
      const dir = path.slice(0, path.length - name.length - 1)
      const ref = tables.get(dir) ?? { type, database, schema, table, dir, files: [] }
      ref.files.push(name)
      tables.set(dir, ref)
    }
  }
  const tableList = [...tables.values()].filter((ref) => tree.get(ref.dir)?.kind === 'dir')
  for (const ref of tableList) ref.files.sort()
  return {
    connections: [...connections.values()].sort(byKeys(['type', 'database'])),
    tables: tableList.sort(byKeys(['type', 'database', 'schema', 'table'])),
    diagnostics
  }
}

/** `type=duckdb` → `duckdb`; a segment without the expected prefix gives ''. */
function valueOf(segment: string, level: string): string {
  return segment.startsWith(level + '=') ? segment.slice(level.length + 1).trim() : ''
}

function byKeys<K extends string>(keys: readonly K[]): (a: Record<K, string>, b: Record<K, string>) => number {
  return (a, b) => {
    for (const key of keys) if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1
    return 0
  }
}
