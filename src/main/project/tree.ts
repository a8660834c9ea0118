import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { isInside } from './safe-path'
import { timeSlicer, type TimeSlice } from './time-slice'
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
  return (await walkProjectExcept(root, () => false)).tree
}

/**
 * Walks the project like walkProject but does not go into the folders `defer` picks (they are in the tree,
 * empty): an open lists the thousands of table folders after the first prompt, not before. `deferred` says
 * which folders wait; refreshPaths on them (or on a folder above) fills them in.
 */
export async function walkProjectExcept(root: string, defer: (relDir: string) => boolean): Promise<{ tree: ProjectTree; deferred: string[] }> {
  const tree: ProjectTree = new Map()
  const deferred = await walkFolder(root, '', tree, defer)
  return { tree, deferred }
}

/**
 * Lists folders left out by walkProjectExcept (they must be in the tree, with nothing below them yet), except
 * the folders below them that `defer` picks; returns those.
 */
export async function listFolders(
  root: string,
  tree: ProjectTree,
  relDirs: readonly string[],
  defer: (relDir: string) => boolean = () => false
): Promise<string[]> {
  const deferred: string[] = []
  for (const relDir of relDirs) deferred.push(...(await walkFolder(root, relDir, tree, defer)))
  return deferred
}

/**
 * Brings the entries for `relPaths` (and, for folders, everything below them) up to date with the disk.
 * Returns the tree itself, changed in place: the watcher owns it and nothing else holds it.
 */
export async function refreshPaths(root: string, tree: ProjectTree, relPaths: Iterable<string>): Promise<ProjectTree> {
  for (const relPath of outermostOnly(relPaths)) {
    if (relPath === '' || isSkipped(relPath)) continue
    const entry = describe(root, relPath)
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

// Entries without data are shared: a 15,000-file tree then allocates one Map slot per path, not one object.
const FILE_ENTRY: TreeEntry = Object.freeze({ kind: 'file' })
const DIR_ENTRY: TreeEntry = Object.freeze({ kind: 'dir' })
const HIDDEN = new Set(ALWAYS_HIDDEN_FOLDERS)

/**
 * Lists `relDir` and everything below it into `tree`. Directory reads are synchronous, in time slices: for
 * thousands of small folders that is about twice as fast as a promise per folder (no thread-pool round trip
 * each), and the process still answers in between.
 */
async function walkFolder(root: string, relDir: string, tree: ProjectTree, defer: (relDir: string) => boolean = () => false): Promise<string[]> {
  const folders = [relDir]
  const links: string[] = []
  const deferred: string[] = []
  const slice = timeSlicer()
  while (folders.length > 0) {
    const folder = folders.pop() ?? ''
    let entries: Dirent[]
    try {
      entries = readdirSync(folder === '' ? root : join(root, folder), { withFileTypes: true })
    } catch {
      continue // vanished or unreadable mid-walk: the watcher reports what happens next
    }
    for (const dirent of entries) {
      if (HIDDEN.has(dirent.name)) continue
      const relPath = folder === '' ? dirent.name : `${folder}/${dirent.name}`
      if (dirent.isDirectory()) {
        tree.set(relPath, DIR_ENTRY)
        if (defer(relPath)) deferred.push(relPath)
        else folders.push(relPath)
      } else if (dirent.isSymbolicLink()) {
        links.push(relPath)
      } else if (dirent.isFile()) {
        tree.set(relPath, FILE_ENTRY)
      }
    }
    const pause = slice()
    if (pause) await pause
  }
  for (const relPath of links) tree.set(relPath, { kind: 'symlink', resolves: resolveLink(root, relPath) })
  return deferred
}

/** How many entries forEachEntrySliced visits between two looks at the clock. */
const ENTRIES_PER_CLOCK_CHECK = 256

/**
 * Calls `visit` for every entry of `tree`, pausing between entries when `slice` (see timeSlicer) says the slice
 * is used up. The tree may change during a pause only through the batch that owns it (batches run one at a time).
 */
export async function forEachEntrySliced(tree: ProjectTree, slice: TimeSlice, visit: (path: string, entry: TreeEntry) => void): Promise<void> {
  let visited = 0
  for (const [path, entry] of tree) {
    visit(path, entry)
    if (++visited % ENTRIES_PER_CLOCK_CHECK !== 0) continue
    const pause = slice()
    if (pause) await pause
  }
}

// Synchronous, like the folder reads: a few stats for the paths of one batch, and a prompt waiting for that
// batch must not queue behind the thread pool's other file work.
function describe(root: string, relPath: string): TreeEntry | null {
  try {
    const info = lstatSync(join(root, relPath))
    if (info.isSymbolicLink()) return { kind: 'symlink', resolves: resolveLink(root, relPath) }
    if (info.isDirectory()) return DIR_ENTRY
    if (info.isFile()) return FILE_ENTRY
    return null
  } catch {
    return null
  }
}

function resolveLink(root: string, relPath: string): 'file' | 'dir' | 'outside' | 'broken' {
  try {
    const target = realpathSync(join(root, relPath))
    if (!isInside(root, target)) return 'outside'
    const info = statSync(target)
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
