import { realpathSync, statSync } from 'node:fs'
import { buildSnapshot, createCaches } from './build'
import { isLocalLinuxFolder } from './event-fence'
import { walkForFirstPrompt } from './first-tree'
import { walkProject } from './tree'
import type { ProjectSnapshot } from './types'

/**
 * Reads a project folder once into a snapshot (version 0). Bad files become diagnostics; only a root that
 * does not exist or is not a folder rejects.
 */
export async function loadProject(root: string): Promise<ProjectSnapshot> {
  const rootReal = realRoot(root)
  return buildSnapshot(rootReal, await walkProject(rootReal), createCaches(), 0)
}

/**
 * Reads only what the system prompt shows, as the app's first snapshot does (see walkForFirstPrompt): on a
 * synced warehouse the table folders below the first schema are not listed, so `tables` and `files` are
 * partial. For a command that prints one prompt and exits.
 */
export async function loadProjectForPrompt(root: string): Promise<ProjectSnapshot> {
  const rootReal = realRoot(root)
  // Nothing changes the tree or caches after: the files can wait until (if ever) they are read, and no file
  // read is checked again, so none needs a stat for that.
  return buildSnapshot(rootReal, (await walkForFirstPrompt(rootReal)).tree, createCaches(), 0, null, {
    filesOnFirstRead: true,
    firstReadsWithoutStat: isLocalLinuxFolder(rootReal)
  })
}

// Synchronous: two quick calls that through the thread pool would each wait for a thread; and a load then
// needs nothing of node:fs/promises, which takes ~1 ms to load in a fresh process. Thrown inside the async
// callers, a failure still rejects.
function realRoot(root: string): string {
  const rootReal = realpathSync.native(root)
  if (!statSync(rootReal).isDirectory()) throw new Error(`Cannot open project "${root}": it is not a folder.`)
  return rootReal
}
