import { lstatSync, readdirSync } from 'node:fs'
import { basename, extname, join, relative } from 'node:path'
import { engineOf } from '../agent/sql/database-pool'
import { dataFileFormat } from '../engines/files/data-files'
import { DATABASE_FILE_EXTENSIONS, engineById } from '../engines/registry'

// What `glassbox init` offers to declare: the DuckDB and SQLite files (told apart by their header, like
// execute_sql does) and the CSV, Parquet and JSON files of a folder. Only regular files are looked at —
// a symlink may lead out of the folder, a pipe would block — and folders that are never data are skipped.

/** A database file's engine id (as its header says), or a data file's format (csv, parquet, json). */
export type DetectedKind = string

export interface DetectedDataFile {
  /** Folder-relative path with forward slashes. */
  path: string
  kind: DetectedKind
  /** The nao_config.yaml name it gets: the file's stem, made unique. */
  name: string
}

/** Folders a data project keeps its own files in (sync output, agent files, cases) or that hold tooling. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'databases', 'agent', 'tests', 'docs', 'semantics', 'repos', 'queries', 'templates'])
const MAX_DEPTH = 4
const MAX_ENTRIES = 5000

/** Data files in `root` (and its sub-folders, a few levels down), databases first, then by path. */
export function detectDataFiles(root: string): DetectedDataFile[] {
  const found: Array<Omit<DetectedDataFile, 'name'>> = []
  let seen = 0
  const walk = (dir: string, depth: number): void => {
    let entries: string[]
    try {
      entries = readdirSync(dir).sort()
    } catch {
      return
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return
      if (entry.startsWith('.')) continue
      const path = join(dir, entry)
      const stat = lstatSync(path, { throwIfNoEntry: false })
      if (!stat) continue
      if (stat.isDirectory()) {
        if (depth < MAX_DEPTH && !(depth === 0 && SKIPPED_FOLDERS.has(entry))) walk(path, depth + 1)
        continue
      }
      if (!stat.isFile()) continue
      const kind = kindOf(path)
      if (kind) found.push({ path: relative(root, path).split('\\').join('/'), kind })
    }
  }
  walk(root, 0)
  const ordered = [...found.filter((file) => isDatabase(file.kind)), ...found.filter((file) => !isDatabase(file.kind))]
  return withNames(ordered)
}

/** The kind of one file, or null when it is not data Glassbox can read. */
export function kindOf(path: string): DetectedKind | null {
  if (DATABASE_FILE_EXTENSIONS.has(extname(path).toLowerCase())) return engineOf(path)
  return dataFileFormat(path)
}

/** Whether the kind is a database file's engine (rather than a data file's format). */
export function isDatabase(kind: DetectedKind): boolean {
  return engineById(kind)?.recognizesFile !== undefined
}

/** A name nao_config.yaml can carry and the model can type: letters, digits, `_` and `-`. */
export function databaseName(path: string): string {
  const stem = basename(path, extname(path))
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return stem === '' ? 'data' : stem
}

function withNames(files: Array<Omit<DetectedDataFile, 'name'>>): DetectedDataFile[] {
  const used = new Set<string>()
  return files.map((file) => {
    const base = databaseName(file.path)
    let name = base
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}_${n}`
    used.add(name.toLowerCase())
    return { ...file, name }
  })
}
