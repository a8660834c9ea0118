import type { Diagnostic } from '../../shared/prompt'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describeCut, fileVersionKey, readProjectTextSync, versionKey, type FolderRealPaths, type TextRead } from './read-text'

// Parsed project files, reused while a file's real path, mtime and size stay the same, so a rebuild after a
// one-file change reads one file. The watcher also drops entries for the paths it saw change, which covers
// a rewrite that keeps the size within the same millisecond.

export interface Parsed<T> {
  value: T
  diagnostics: Diagnostic[]
}

export interface Loaded<T> {
  /** null when the file was refused (outside the project, binary, not UTF-8, unreadable). */
  value: T | null
  diagnostics: Diagnostic[]
}

export class ParsedFileCache<T> {
  private readonly entries = new Map<
    string,
    {
      key: string
      root: string
      absolute: string
      throughLink: boolean
      mtimeMs: number
      size: number
      loaded: Loaded<T>
      /** The text of a file read without a stat, to tell at its first check by stat whether it really changed. */
      unstatedText?: string
    }
  >()

  constructor(private readonly parse: (relPath: string, text: string) => Parsed<T>) {}

  /**
   * Reads and parses `relPath` (at most `maxBytes`), or returns the cached result if the file is unchanged.
   * Synchronous (see readProjectTextSync): callers yield between files. `firstReadWithoutStat`: a file not
   * cached yet may be read without a stat (see readProjectTextSync); not knowing its mtime, the next check by
   * stat (a load without `unchanged`, changedOnDisk) takes it for changed and reads it again, with one. So only
   * where every later edit is told otherwise (a watch of the folder made before the read).
   */
  load(
    root: string,
    relPath: string,
    maxBytes: number,
    options: { unchanged?: boolean; folders?: FolderRealPaths; firstReadWithoutStat?: boolean } = {}
  ): Loaded<T> {
    const cached = this.entries.get(relPath)
    // Nothing cached (as for every file when a project opens): read at once, keyed by what the read saw.
    if (!cached) return this.readAndKeep(root, relPath, maxBytes, options.folders, options.firstReadWithoutStat)
    // The caller knows which paths changed (the watcher's batch): the others need no stat and realpath each.
    if (options.unchanged) return cached.loaded
    const key = fileVersionKey(root, relPath, options.folders)
    if (typeof key !== 'string') return { value: null, diagnostics: [{ file: relPath, problem: key.problem }] }
    if (cached.key === key) return cached.loaded
    return this.readAndKeep(root, relPath, maxBytes, options.folders, false, cached)
  }

  /** Forgets the given paths (changed on disk) so the next load reads them again. */
  invalidate(relPaths: Iterable<string>): void {
    for (const path of relPaths) this.entries.delete(path)
  }

  /**
   * The cached paths whose file on disk no longer has the mtime and size it was read with (or is gone): one
   * stat each, no read, so a prompt can tell at once whether an edit the watcher has not reported yet exists.
   * `onlyThroughLinks`: just the files read through a symlink, whose edits a watch of their folder misses.
   */
  changedOnDisk(root: string, onlyThroughLinks = false): string[] {
    const changed: string[] = []
    for (const [path, entry] of this.entries) {
      if (onlyThroughLinks && !entry.throughLink) continue
      // The path as it was joined when read: joining 300 paths again costs a third of the stats.
      const info = statSync(entry.root === root ? entry.absolute : join(root, path), { throwIfNoEntry: false })
      if (!info || info.mtimeMs !== entry.mtimeMs || info.size !== entry.size) changed.push(path)
    }
    return changed
  }

  /** Keeps only entries whose path is still wanted, so deleted files do not pile up. */
  retain(relPaths: ReadonlySet<string>): void {
    for (const path of this.entries.keys()) if (!relPaths.has(path)) this.entries.delete(path)
  }

  /**
   * Reads and parses; a refused file is not kept, so the next load tries it again. A file `previous` read
   * without a stat keeps what it parsed to when its text is the same: its objects, and what was made of them
   * (a rendered skill), stay the same.
   */
  private readAndKeep(
    root: string,
    relPath: string,
    maxBytes: number,
    folders?: FolderRealPaths,
    withoutStat = false,
    previous?: { unstatedText?: string; loaded: Loaded<T> }
  ): Loaded<T> {
    const read = readProjectTextSync(root, relPath, maxBytes, folders, { withoutStat })
    if (!read.ok) {
      this.entries.delete(relPath)
      return { value: null, diagnostics: [{ file: relPath, problem: read.problem }] }
    }
    const loaded = previous?.unstatedText === read.text && !read.cut ? previous.loaded : this.parsed(relPath, read, maxBytes)
    const absolute = folders ? folders.joinedPath(relPath) : join(root, relPath)
    const key = versionKey(read.real, read.mtimeMs, read.size)
    const unstatedText = Number.isNaN(read.mtimeMs) ? read.text : undefined
    this.entries.set(relPath, { key, root, absolute, throughLink: read.real !== absolute, mtimeMs: read.mtimeMs, size: read.size, loaded, unstatedText })
    return loaded
  }

  private parsed(relPath: string, read: TextRead, maxBytes: number): Loaded<T> {
    const parsed = this.parse(relPath, read.text)
    const cut: Diagnostic[] = read.cut ? [{ file: relPath, problem: describeCut(read.size, maxBytes) }] : []
    return { value: parsed.value, diagnostics: [...cut, ...parsed.diagnostics] }
  }
}
