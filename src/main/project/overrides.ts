import type { Diagnostic } from '../../shared/prompt'
import type { Parsed } from './parse-cache'
import type { ProjectFile } from './types'

// Prompt overrides under agent/prompts/: system.md for every channel, <channel>.md for one channel, and
// user-prompt.md for the user prompt template. Trimmed; an empty file counts as absent.

export const PROMPTS_FOLDER = 'agent/prompts'

export type OverrideSlot = { kind: 'system' } | { kind: 'user-prompt' } | { kind: 'channel'; channel: string }

/** Which override a project-relative path is, or null when it is not one. */
export function overrideSlotOf(relPath: string): OverrideSlot | null {
  const prefix = PROMPTS_FOLDER + '/'
  if (!relPath.startsWith(prefix)) return null
  const base = relPath.slice(prefix.length)
  if (base.includes('/') || !/\.md$/i.test(base)) return null
  const stem = base.slice(0, -3).toLowerCase()
  if (stem === '') return null
  if (stem === 'system') return { kind: 'system' }
  if (stem === 'user-prompt') return { kind: 'user-prompt' }
  return { kind: 'channel', channel: stem }
}

/** Parses an override file: trimmed text, or null when nothing is left. */
export function parseOverride(relPath: string, text: string): Parsed<ProjectFile | null> {
  const trimmed = text.trim()
  const diagnostics: Diagnostic[] = []
  return { value: trimmed === '' ? null : { source: relPath, text: trimmed }, diagnostics }
}
