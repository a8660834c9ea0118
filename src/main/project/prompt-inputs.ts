import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { SnapshotCaches } from './build'
import { IGNORE_FILE, RULES_FILE } from './build'
import { CONFIG_FILE } from './config'
import { PROMPTS_FOLDER } from './overrides'
import { SKILLS_FOLDER } from './skills'
import type { ProjectTree } from './tree'

// The files the system prompt is made of, compared with the disk when a prompt is asked for. The OS reports
// an edit some milliseconds after it, and the watcher then waits for the changes to settle; a prompt cannot
// wait for either, so it looks for itself: one stat per file it read and one listing per folder it lists
// (~300 stats on a project with 300 skills, about half a millisecond). An edit that keeps both mtime and size within
// the same millisecond escapes this check; the watcher still reports it.

const PROMPT_FILES = [RULES_FILE, CONFIG_FILE, IGNORE_FILE] as const
const PROMPT_FOLDERS = [SKILLS_FOLDER, PROMPTS_FOLDER] as const

/** The folders whose entries the prompt reads or that hold one of them, the project folder ('') first. */
export const PROMPT_FOLDER_CHAIN: readonly string[] = [
  ...new Set(['', ...PROMPT_FOLDERS.flatMap((folder) => folder.split('/').map((_, index, parts) => parts.slice(0, index + 1).join('/')))])
]

/** Project-relative paths the prompt depends on that differ on disk from what `tree` and `caches` hold. */
export function changedPromptInputs(root: string, tree: ProjectTree, caches: SnapshotCaches): string[] {
  const changed = new Set(changedFilesOnDisk(root, caches, false))
  // A prompt file that appeared (or went) since the tree was last patched.
  for (const path of PROMPT_FILES) if (tree.has(path) !== exists(join(root, path))) changed.add(path)
  for (const folder of PROMPT_FOLDERS) for (const path of listingChanges(root, tree, folder, caches.listed?.[folder] ?? [])) changed.add(path)
  return [...changed]
}

/**
 * The prompt's files read through a symlink that differ on disk: the watch of the link's folder does not see
 * an edit of the file it leads to, so these are checked with a stat even when the watcher is trusted.
 */
export function changedThroughLinks(root: string, caches: SnapshotCaches): string[] {
  return changedFilesOnDisk(root, caches, true)
}

function changedFilesOnDisk(root: string, caches: SnapshotCaches, onlyThroughLinks: boolean): string[] {
  const changed: string[] = []
  for (const cache of [caches.rules, caches.config, caches.ignore, caches.skills, caches.overrides]) {
    changed.push(...cache.changedOnDisk(root, onlyThroughLinks))
  }
  return changed
}

/**
 * Whether a change at `relPath` can change the prompt: a prompt file, anything in a prompt folder, or a
 * folder on the way to one (`agent` for `agent/skills`), which takes the prompt folder with it.
 */
export function isPromptInput(relPath: string): boolean {
  // The project folder itself (an event with no name): anything in it may have changed.
  if (relPath === '' || relPath === '.') return true
  if ((PROMPT_FILES as readonly string[]).includes(relPath)) return true
  return isOnTheWayToPromptFolder(relPath) || PROMPT_FOLDERS.some((folder) => relPath.startsWith(folder + '/'))
}

/** A prompt folder or a folder that holds one: its coming or going adds or drops the watch of a prompt folder. */
export function isOnTheWayToPromptFolder(relPath: string): boolean {
  return PROMPT_FOLDERS.some((folder) => isAtOrAbove(relPath, folder))
}

/** Whether `relPath` is `folder` or a folder that holds it. */
export function isAtOrAbove(relPath: string, folder: string): boolean {
  return relPath === folder || folder.startsWith(relPath + '/')
}

/**
 * Names in `folder` on disk that the tree lacks, and files the last snapshot listed there (the ones the prompt
 * reads) that are gone; the folder itself if it came or went. Other files gone from it wait for the watcher:
 * finding them would take a pass over the whole tree.
 */
function listingChanges(root: string, tree: ProjectTree, folder: string, listed: readonly string[]): string[] {
  let names: string[]
  try {
    names = readdirSync(join(root, folder))
  } catch {
    return tree.has(folder) ? [folder] : []
  }
  // New, or replaced by a folder that was not there when the tree was walked: the whole folder is read again.
  if (tree.get(folder)?.kind !== 'dir') return [ancestorMissing(tree, folder)]
  const prefix = folder + '/'
  const onDisk = new Set(names.map((name) => prefix + name))
  const changes = [...onDisk].filter((path) => !tree.has(path))
  for (const path of listed) if (!onDisk.has(path)) changes.push(path)
  return changes
}

/** The outermost folder on the way to `folder` that the tree does not have (`agent` for a new `agent/skills`). */
function ancestorMissing(tree: ProjectTree, folder: string): string {
  const segments = folder.split('/')
  for (let length = 1; length <= segments.length; length++) {
    const path = segments.slice(0, length).join('/')
    if (!tree.has(path)) return path
  }
  return folder
}

function exists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false }) !== undefined
}
