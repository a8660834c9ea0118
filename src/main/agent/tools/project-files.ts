import { readProjectTextCached } from '../../project/file-contents'
import { resolveInside, toProjectPath } from '../../project/safe-path'
import type { ProjectSnapshot } from '../../project/types'
import { isHidden } from '../../project/visibility'
import { ToolError } from './create-tool'
import { errorMessage } from '../../../shared/error-message'

// The one way file tools touch the project: through the safe-path guard, and never showing what .naoignore
// or .git hides. A hidden file is reported as missing, so its existence does not leak either.

/** Normalises a model-given path to project-relative form ('' for the root), refusing escapes and hidden paths. */
export function visiblePath(project: ProjectSnapshot, requested: string): string {
  const trimmed = requested.trim().replace(/\\/g, '/')
  if (trimmed === '' || trimmed === '.' || trimmed === '/') return ''
  let real: string
  try {
    real = resolveInside(project.root, trimmed)
  } catch (error) {
    throw new ToolError(errorMessage(error))
  }
  const relative = toProjectPath(project.root, real)
  const lexical = trimmed.replace(/^\.\/+/, '').replace(/\/+$/, '')
  if (isHidden(relative, project.ignorePatterns) || isHidden(lexical, project.ignorePatterns)) {
    throw new ToolError(`Cannot read "${requested}": no such file or folder.`)
  }
  return relative
}

/** Reads a visible project text file; binary, non-UTF-8 and unreadable files become ToolErrors. */
export async function readVisibleText(project: ProjectSnapshot, requested: string, maxBytes: number): Promise<{ path: string; text: string; size: number; cut: boolean }> {
  const path = visiblePath(project, requested)
  if (path === '') throw new ToolError('That is the project folder; use list to see its contents.')
  const read = await readProjectTextCached(project.root, path, maxBytes)
  if (!read.ok) throw new ToolError(`Cannot read "${requested}": ${read.problem}`)
  return { path, text: read.text, size: read.size, cut: read.cut }
}

/** Visible files under a project-relative folder ('' = all). */
export function filesUnder(project: ProjectSnapshot, folder: string): string[] {
  if (folder === '') return project.files
  const prefix = folder.endsWith('/') ? folder : `${folder}/`
  return project.files.filter((file) => file === folder || file.startsWith(prefix))
}

/**
 * A path as one line of tool output: a name holding a newline or another control character is shown
 * JSON-quoted (`"a\\nb.md"`), so it cannot forge extra lines (a fake entry, a fake grep match).
 */
export function shownPath(path: string): string {
  return /[\u0000-\u001f\u007f\u2028\u2029]/.test(path) ? JSON.stringify(path) : path
}

/** Lines of `items` (paths), cut at `max` with a visible marker. */
export function cappedLines(items: readonly string[], max: number, noun: string): string {
  const shown = items.slice(0, max).map(shownPath)
  const more = items.length - shown.length
  return shown.join('\n') + (more > 0 ? `\n… ${more} more ${noun} (${items.length} total)` : '')
}
