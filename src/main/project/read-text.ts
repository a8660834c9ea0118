import { lstatSync, realpathSync, statSync } from 'node:fs'
import { isAbsolute, join, sep } from 'node:path'
import { CAN_REFUSE_LINK_ON_OPEN, NotRegularFileError, readRegularFile, readRegularFileSyncWithInfo, readSmallFileSync } from './regular-file'
import { isInside, PathOutsideProjectError, ProjectPathMissingError, resolveInside } from './safe-path'
import { errorMessage } from '../../shared/error-message'

// Reads one project text file through the safe-path guard, refusing what would hurt the prompt: binary
// content, text that is not UTF-8, and (by cutting, not refusing) files over a size cap.

/** Caps, in bytes of file content, for each kind of file the project model reads. */
export const TEXT_LIMITS = {
  rules: 1024 * 1024,
  config: 1024 * 1024,
  override: 1024 * 1024,
  skill: 256 * 1024,
  naoignore: 64 * 1024
} as const

export interface TextRead {
  ok: true
  /** Real absolute path that was read. */
  real: string
  text: string
  /** Size of the whole file in bytes. */
  size: number
  /** NaN when the file was read without a stat (see readProjectTextSync's `withoutStat`). */
  mtimeMs: number
  /** True when only the first `maxBytes` were read. */
  cut: boolean
}

export interface TextRefused {
  ok: false
  problem: string
}

/** Reads `relPath` (project-relative) as UTF-8 text, at most `maxBytes` of it. Never throws for bad input. */
export async function readProjectText(root: string, relPath: string, maxBytes: number): Promise<TextRead | TextRefused> {
  const real = guardedPath(root, relPath)
  if (typeof real !== 'string') return real
  try {
    return asText(real, await readRegularFile(real, maxBytes))
  } catch (error) {
    return refusedRead(error)
  }
}

/**
 * readProjectText without the thread pool, for the project model's many small files (300 skills at open):
 * five pool round trips per file cost more than the reads themselves on a busy machine. Same guard, same
 * checks, same results; callers keep each call short (the files are capped) and yield between them.
 * `withoutStat` (only for a folder on a local filesystem, see isLocalLinuxFolder): a small file lying where its
 * folder's real path says is read without a stat, and its `mtimeMs` is NaN; anything else is read as usual.
 */
export function readProjectTextSync(
  root: string,
  relPath: string,
  maxBytes: number,
  folders?: FolderRealPaths,
  options: { withoutStat?: boolean } = {}
): TextRead | TextRefused {
  const direct = folders?.pathInRealFolder(relPath)
  if (direct) {
    const small = options.withoutStat ? readSmallFileSync(direct, maxBytes) : null
    if (small) return asText(direct, { bytes: small, size: small.length, mtimeMs: NaN })
    try {
      return asText(direct, readRegularFileSyncWithInfo(direct, maxBytes, { refuseLink: true }))
    } catch {
      // A symlink, gone, not a regular file: the full guard below gives the usual answer.
    }
  }
  const real = guardedPath(root, relPath)
  if (typeof real !== 'string') return real
  try {
    return asText(real, readRegularFileSyncWithInfo(real, maxBytes))
  } catch (error) {
    return refusedRead(error)
  }
}

/**
 * What a cache of a project file is keyed by: its real path, mtime and size, as they are now (one stat); or
 * why it cannot be read, in the words a read would use. A read's own key is `versionKey` of what it saw.
 */
export function fileVersionKey(root: string, relPath: string, folders?: FolderRealPaths): string | TextRefused {
  const direct = folders?.pathInRealFolder(relPath)
  const info = direct ? lstatSync(direct, { throwIfNoEntry: false }) : undefined
  if (direct && info?.isFile()) return versionKey(direct, info.mtimeMs, info.size)
  const real = guardedPath(root, relPath)
  if (typeof real !== 'string') return real
  try {
    const info = statSync(real)
    return info.isFile() ? versionKey(real, info.mtimeMs, info.size) : refusedRead(new NotRegularFileError(real))
  } catch (error) {
    return refusedRead(error)
  }
}

/**
 * The project's folders' real paths, each taken once: reading 300 skills of one folder then costs one realpath,
 * not two per file (the root's and the file's). A file whose last part is not a symlink lies where its
 * folder's real path says, so it is opened there, refusing a symlink in the open itself; anything else (a
 * symlink, a folder outside) goes through resolveInside as before. For one pass over the project (a snapshot
 * build), never kept longer: a folder can be replaced by a symlink at any time.
 */
export class FolderRealPaths {
  private rootReal: string | null = null
  private readonly folders = new Map<string, { joined: string; real: string | null }>()

  constructor(private readonly root: string) {}

  /** Where `relPath` is if its last part is a plain file, when its folder's real path is inside the project; else null. */
  pathInRealFolder(relPath: string): string | null {
    if (!CAN_REFUSE_LINK_ON_OPEN || isAbsolute(relPath) || relPath.includes('..') || relPath.includes('\\')) return null
    const slash = relPath.lastIndexOf('/')
    const name = relPath.slice(slash + 1)
    if (name === '' || name === '.') return null
    const real = this.folderOf(slash === -1 ? '' : relPath.slice(0, slash)).real
    return real === null ? null : childPath(real, name)
  }

  /** `join(root, relPath)`, with each folder's part normalised once, not once per file in it. */
  joinedPath(relPath: string): string {
    const slash = relPath.lastIndexOf('/')
    const name = relPath.slice(slash + 1)
    if (name === '' || name === '.' || name === '..' || name.includes('\\')) return join(this.root, relPath)
    return childPath(this.folderOf(slash === -1 ? '' : relPath.slice(0, slash)).joined, name)
  }

  private folderOf(relDir: string): { joined: string; real: string | null } {
    let folder = this.folders.get(relDir)
    if (folder === undefined) {
      const joined = join(this.root, relDir)
      let real: string | null
      try {
        this.rootReal ??= realpathSync.native(this.root)
        const folderReal = relDir === '' ? this.rootReal : realpathSync.native(joined)
        real = isInside(this.rootReal, folderReal) ? folderReal : null
      } catch {
        real = null
      }
      folder = { joined, real }
      this.folders.set(relDir, folder)
    }
    return folder
  }
}

/** A plain name inside a normalised folder path: what `join` gives, by concatenation (join re-reads the whole path). */
function childPath(folder: string, name: string): string {
  return folder.endsWith(sep) ? folder + name : folder + sep + name
}

export function versionKey(real: string, mtimeMs: number, size: number): string {
  return `${real}\u0000${mtimeMs}\u0000${size}`
}

/** The real path inside the project, or why it may not be read. */
function guardedPath(root: string, relPath: string): string | TextRefused {
  try {
    return resolveInside(root, relPath)
  } catch (error) {
    if (error instanceof PathOutsideProjectError || error instanceof ProjectPathMissingError) {
      return { ok: false, problem: error.message }
    }
    throw error
  }
}

function asText(real: string, read: { bytes: Buffer; size: number; mtimeMs: number }): TextRead | TextRefused {
  const cut = read.bytes.length < read.size
  const decoded = decodeUtf8(read.bytes, cut)
  if (!decoded.ok) return decoded
  return { ok: true, real, text: decoded.text, size: read.size, mtimeMs: read.mtimeMs, cut }
}

function refusedRead(error: unknown): TextRefused {
  if (error instanceof NotRegularFileError) return { ok: false, problem: 'is not a regular file; skipped' }
  return { ok: false, problem: `could not be read (${describeError(error)}); skipped` }
}

const WHOLE_TEXT_DECODER = new TextDecoder('utf-8', { fatal: true })

/** Decodes UTF-8 strictly; a cut file may end inside a character, which is dropped rather than refused. */
export function decodeUtf8(bytes: Uint8Array, cut: boolean): { ok: true; text: string } | TextRefused {
  let text: string
  try {
    // A decoder keeps no state after a whole text, so one serves every file; a cut one ends mid-stream.
    text = cut ? new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true }) : WHOLE_TEXT_DECODER.decode(bytes)
  } catch {
    return bytes.includes(0) ? LOOKS_BINARY : { ok: false, problem: 'is not valid UTF-8 text; skipped (save it as UTF-8)' }
  }
  // Looked for in the text: in UTF-8 a NUL byte is the NUL character and nothing else, and a string's search is
  // a builtin where a Buffer's goes through JavaScript first (a few µs each of 300 skills, in a cold process).
  return text.includes('\u0000') ? LOOKS_BINARY : { ok: true, text }
}

const LOOKS_BINARY: TextRefused = { ok: false, problem: 'looks binary (contains NUL bytes); skipped' }

/** The words a diagnostic uses for a file cut at its cap. */
export function describeCut(size: number, maxBytes: number): string {
  return `is ${formatBytes(size)}; only the first ${formatBytes(maxBytes)} was read (size limit)`
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`
  return `${bytes} bytes`
}

function describeError(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code
  return errorMessage(error)
}
