import { readdirSync, realpathSync } from 'node:fs'
import { extname, join } from 'node:path'
import type { DuckDbAccess } from './runner'

// Which project files DuckDB may read: exactly the data files the agent can see (not hidden by .naoignore,
// not under .git, symlinks only when they lead inside the project), and, so globs work, the folders that
// hold such files and nothing else — a folder with a hidden file or a symlink out is never opened whole.

export const DATA_FILE_EXTENSIONS = new Set(['.csv', '.tsv', '.txt', '.parquet', '.pq', '.json', '.jsonl', '.ndjson', '.gz', '.zst'])

/** A folder is allowed whole only if its subtree is this small (the walk is bounded). */
const MAX_FOLDER_ENTRIES = 5_000
const MAX_ALLOWED_PATHS = 20_000

export function isDataFile(path: string): boolean {
  return DATA_FILE_EXTENSIONS.has(extname(path).toLowerCase())
}

/** `root` is the project's real path; `visibleFiles` its project-relative visible files (snapshot.files). */
export function projectFileAccess(root: string, visibleFiles: readonly string[]): DuckDbAccess {
  const visible = new Set(visibleFiles)
  const dataFiles = visibleFiles.filter(isDataFile).slice(0, MAX_ALLOWED_PATHS)
  const allowedPaths = new Set<string>()
  for (const file of dataFiles) {
    allowedPaths.add(join(root, file))
    try {
      allowedPaths.add(realpathSync(join(root, file)))
    } catch {
      // Gone since the snapshot: the engine will say the file is missing.
    }
  }
  const folders = new Set(dataFiles.map((file) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '')))
  const allowedDirectories = [...folders].filter((folder) => folder !== '' && onlyVisibleBelow(root, folder, visible)).map((folder) => join(root, folder) + '/')
  return { projectRoot: root, allowedPaths: [...allowedPaths], allowedDirectories }
}

function onlyVisibleBelow(root: string, folder: string, visible: ReadonlySet<string>): boolean {
  let budget = MAX_FOLDER_ENTRIES
  const walk = (relative: string): boolean => {
    let entries
    try {
      entries = readdirSync(join(root, relative), { withFileTypes: true })
    } catch {
      return false
    }
    for (const entry of entries) {
      if (--budget < 0) return false
      const path = `${relative}/${entry.name}`
      if (entry.isDirectory()) {
        if (!walk(path)) return false
      } else if (!visible.has(path)) return false
    }
    return true
  }
  return walk(folder)
}
