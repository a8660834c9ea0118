import type { Diagnostic } from '../../shared/prompt'
import type { TimeSlice } from './time-slice'
import { forEachEntrySliced, type ProjectTree, type TreeEntry } from './tree'
import type { Connection, TableRef } from './types'

// Connections and tables come from folder names alone:
// databases/type=<type>/database=<db>/schema=<schema>/table=<table>/{columns.md,preview.md,…}

export const DATABASES_FOLDER = 'databases'

const LEVELS = ['type', 'database', 'schema', 'table'] as const
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f\u2028\u2029]/
const PREFIX = DATABASES_FOLDER + '/'

export interface DatabaseLayout {
  connections: Connection[]
  tables: TableRef[]
  diagnostics: Diagnostic[]
}

/**
 * Reads the `databases/` layout out of the tree, in time slices when given a slicer (see time-slice.ts): a
 * warehouse's tree has ~20,000 entries, and one pass over them all held the event loop for tens of milliseconds.
 */
export async function readDatabaseLayout(tree: ProjectTree, slice: TimeSlice = () => undefined): Promise<DatabaseLayout> {
  const layout = layoutReader(tree)
  await forEachEntrySliced(tree, slice, layout.add)
  return layout.result()
}

/** The layout of a tree, entry by entry (`add`), then `result()`. */
function layoutReader(tree: ProjectTree): { add: (path: string, entry: TreeEntry) => void; result: () => DatabaseLayout } {
  const root = tree.get(DATABASES_FOLDER)
  if (root && root.kind !== 'dir') {
    const notAFolder = { connections: [], tables: [], diagnostics: [{ file: DATABASES_FOLDER, problem: 'is not a folder; no connections or tables are read from it' }] }
    return { add: () => undefined, result: () => notAFolder }
  }
  const connections = new Map<string, Connection>()
  const tables: TableRef[] = []
  const filesByFolder = new Map<string, string[]>()
  const diagnostics: Diagnostic[] = []
  const add = (path: string, entry: TreeEntry): void => {
    if (!path.startsWith(PREFIX)) return
    const lastSlash = path.lastIndexOf('/')
    const name = path.slice(lastSlash + 1)
    if (name.startsWith('.')) return
    const depth = depthBelowDatabases(path)
    // Most entries are the files of a table folder (depth 5): only the folder name is needed for them.
    if (depth === 5) {
      if (isReadableFile(entry)) appendTo(filesByFolder, path.slice(0, lastSlash), name)
      return
    }
    if (depth > LEVELS.length) return
    const level = LEVELS[depth - 1]
    if (CONTROL_CHARACTER.test(path)) {
      // A newline in a folder name would become a line of its own in the prompt's connection list. The
      // folder is reported once; what is below it goes with it.
      if (CONTROL_CHARACTER.test(name) && !CONTROL_CHARACTER.test(path.slice(0, lastSlash))) {
        diagnostics.push({ file: JSON.stringify(path), problem: 'folder name holds a newline or control character; ignored with everything in it' })
      }
      return
    }
    if (entry.kind !== 'dir') {
      const what = entry.kind === 'symlink' ? 'a symlink (not followed)' : 'a file'
      diagnostics.push({ file: path, problem: `is ${what} where a \`${level}=<name>\` folder is expected; ignored` })
      return
    }
    if (!name.startsWith(level + '=')) {
      diagnostics.push({ file: path, problem: `folder name does not start with \`${level}=\`; ignored` })
      return
    }
    const values = path.slice(PREFIX.length).split('/').map((segment, index) => valueOf(segment, LEVELS[index]))
    if (values.some((value) => value === '')) return // an empty name at any level is skipped, as nao does
    const [type, database, schema, table] = values
    if (depth === 2) connections.set(`${type}\u0000${database}`, { type, database })
    if (depth === 4) tables.push({ type, database, schema, table, dir: path, files: [] })
  }
  const result = (): DatabaseLayout => {
    for (const ref of tables) ref.files = (filesByFolder.get(ref.dir) ?? []).sort()
    return {
      connections: [...connections.values()].sort(byKeys(['type', 'database'])),
      tables: tables.sort(byKeys(['type', 'database', 'schema', 'table'])),
      diagnostics
    }
  }
  return { add, result }
}

/** 1 for databases/x, 2 for databases/x/y, …; counts slashes without splitting the path. */
function depthBelowDatabases(path: string): number {
  let depth = 0
  for (let index = PREFIX.length - 1; index !== -1; index = path.indexOf('/', index + 1)) depth++
  return depth
}

function isReadableFile(entry: TreeEntry): boolean {
  return entry.kind === 'file' || (entry.kind === 'symlink' && entry.resolves === 'file')
}

function appendTo(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
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
