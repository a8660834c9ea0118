import type { Dirent } from 'node:fs'
import { lstat, readdir, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { isInside } from './safe-path'
import { ALWAYS_HIDDEN_FOLDERS } from './visibility'

// The list of what is in the project folder, by project-relative path. Built by one walk when the project
// opens and patched path by path as the watcher reports changes, so rebuilding the snapshot needs no scan.

export type TreeEntry =
  | { kind: 'file' }
  | { kind: 'dir' }
  /** Symlinks are resolved once; folders behind them are not walked (no loops, no duplicates). */
  | { kind: 'symlink'; resolves: 'file' | 'dir' | 'outside' | 'broken' }

/** Project-relative path (forward slashes) → entry. The root itself is not in it. */
export type ProjectTree = Map<string, TreeEntry>

/** Walks the whole project, skipping `.git` and `node_modules`. */
export async function walkProject(root: string): Promise<ProjectTree> {
  const tree: ProjectTree = new Map()
  await walkFolder(root, '', tree)
  return tree
}

/**
 * Brings the entries for `relPaths` (and, for folders, everything below them) up to date with the disk.
 * Returns the tree itself, changed in place: the watcher owns it and nothing else holds it.
 */
export async function refreshPaths(root: string, tree: ProjectTree, relPaths: Iterable<string>): Promise<ProjectTree> {
  for (const relPath of outermostOnly(relPaths)) {
    if (relPath === '' || isSkipped(relPath)) continue
    const entry = await describe(root, relPath)
    if (tree.get(relPath)?.kind === 'dir' || entry?.kind === 'dir') removeBelow(tree, relPath)
    if (!entry) {
      tree.delete(relPath)
      continue
    }
    tree.set(relPath, entry)
    if (entry.kind === 'dir') await walkFolder(root, relPath, tree)
  }
  return tree
}

/** At most this many directory reads in flight: more only queues on libuv's pool and slows the walk down. */
const PARALLEL_READS = 4

async function walkFolder(root: string, relDir: string, tree: ProjectTree, limit = limiter(PARALLEL_READS)): Promise<void> {
  let entries: Dirent[]
  try {
    entries = await limit(() => readdir(relDir === '' ? root : join(root, relDir), { withFileTypes: true }))
  } catch {
    return // vanished or unreadable mid-walk: the watcher reports what happens next
  }
  const pending: Array<Promise<void>> = []
  for (const dirent of entries) {
    if (ALWAYS_HIDDEN_FOLDERS.includes(dirent.name)) continue
    const relPath = relDir === '' ? dirent.name : `${relDir}/${dirent.name}`
    if (dirent.isDirectory()) {
      tree.set(relPath, { kind: 'dir' })
      pending.push(walkFolder(root, relPath, tree, limit))
    } else if (dirent.isSymbolicLink()) {
      pending.push(resolveLink(root, relPath).then((resolves) => void tree.set(relPath, { kind: 'symlink', resolves })))
    } else if (dirent.isFile()) {
      tree.set(relPath, { kind: 'file' })
    }
  }
  await Promise.all(pending)
}

/** Runs at most `max` of the given tasks at once. */
function limiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0
  const waiting: Array<() => void> = []
  return async (task) => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve))
    active++
    try {
      return await task()
    } finally {
      active--
      waiting.shift()?.()
    }
  }
}

async function describe(root: string, relPath: string): Promise<TreeEntry | null> {
  try {
    const info = await lstat(join(root, relPath))
    if (info.isSymbolicLink()) return { kind: 'symlink', resolves: await resolveLink(root, relPath) }
    if (info.isDirectory()) return { kind: 'dir' }
    if (info.isFile()) return { kind: 'file' }
    return null
  } catch {
    return null
  }
}

async function resolveLink(root: string, relPath: string): Promise<'file' | 'dir' | 'outside' | 'broken'> {
  try {
    const target = await realpath(join(root, relPath))
    if (!isInside(root, target)) return 'outside'
    const info = await stat(target)
    // A link to a pipe or device is no readable file: treat it like a dangling link.
    return info.isDirectory() ? 'dir' : info.isFile() ? 'file' : 'broken'
  } catch {
    return 'broken'
  }
}

function removeBelow(tree: ProjectTree, relDir: string): void {
  const prefix = relDir + '/'
  for (const path of tree.keys()) if (path.startsWith(prefix)) tree.delete(path)
}

/** Hidden folders, and anything a stray event names outside the project. */
function isSkipped(relPath: string): boolean {
  const segments = relPath.split('/')
  return isAbsolute(relPath) || segments[0] === '..' || segments.some((segment) => ALWAYS_HIDDEN_FOLDERS.includes(segment))
}

/** Drops paths below another path of the same batch: refreshing that folder covers them. */
function outermostOnly(relPaths: Iterable<string>): string[] {
  const unique = new Set(relPaths)
  return [...unique].filter((path) => !ancestorsOf(path).some((ancestor) => unique.has(ancestor)))
}

function ancestorsOf(relPath: string): string[] {
  const segments = relPath.split('/')
  return segments.slice(1).map((_, index) => segments.slice(0, index + 1).join('/'))
}
