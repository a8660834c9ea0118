import { realpath, stat } from 'node:fs/promises'
import { buildSnapshot, createCaches } from './build'
import { walkProject } from './tree'
import type { ProjectSnapshot } from './types'

/**
 * Reads a project folder once into a snapshot (version 0). Bad files become diagnostics; only a root that
 * does not exist or is not a folder rejects.
 */
export async function loadProject(root: string): Promise<ProjectSnapshot> {
  const rootReal = await realpath(root)
  if (!(await stat(rootReal)).isDirectory()) throw new Error(`Cannot open project "${root}": it is not a folder.`)
  const tree = await walkProject(rootReal)
  return buildSnapshot(rootReal, tree, createCaches(), 0)
}
