import { realpathSync, statSync } from 'node:fs'
import type { MemoryView } from '../../shared/api'
import type { MemoryCategory } from '../../shared/prompt'
import type { ProjectRecord, Store } from '../store'
import { normaliseMemoryContent } from './normalise'
import { MEMORY_CATEGORIES } from './select'

// What the memory manager (UI and CLI) can do. Content typed by a person gets the same normalisation as
// extracted content, so the two look alike in the prompt.

/** Bad input from the user: an unknown category, empty text, a folder that is not there. */
export class MemoryInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MemoryInputError'
  }
}

export function parseCategory(value: string): MemoryCategory {
  const category = MEMORY_CATEGORIES.find((candidate) => candidate === value)
  if (!category) throw new MemoryInputError(`unknown category '${value}': use ${MEMORY_CATEGORIES.join(' or ')}`)
  return category
}

function cleanContent(content: string): string {
  const normalised = normaliseMemoryContent(content)
  if (normalised === '') throw new MemoryInputError('memory text is empty')
  return normalised
}

/** The stored project for a folder, identified by its real path (symlinks resolved), created on first use. */
export function projectForFolder(store: Store, folder: string): ProjectRecord {
  let root: string
  try {
    root = realpathSync(folder)
  } catch {
    throw new MemoryInputError(`project folder not found: ${folder}`)
  }
  if (!statSync(root).isDirectory()) throw new MemoryInputError(`project path is not a folder: ${folder}`)
  return store.projects.ensure(root)
}

export function listMemories(store: Store, projectId: number): MemoryView[] {
  return store.memories.list(projectId)
}

export function addMemory(store: Store, projectId: number, category: MemoryCategory, content: string): MemoryView {
  return store.memories.add(projectId, { category, content: cleanContent(content), chatId: null })
}

export function editMemory(store: Store, projectId: number, id: number, content: string): MemoryView {
  return store.memories.edit(projectId, id, cleanContent(content))
}

export function setMemoryEnabled(store: Store, projectId: number, id: number, enabled: boolean): MemoryView {
  return store.memories.setEnabled(projectId, id, enabled)
}

export function deleteMemory(store: Store, projectId: number, id: number): void {
  store.memories.delete(projectId, id)
}

/** Memory on or off for the whole project: off means no Memory section and no extraction. */
export function setProjectMemory(store: Store, projectId: number, enabled: boolean): ProjectRecord {
  return store.projects.setMemoryEnabled(projectId, enabled)
}
