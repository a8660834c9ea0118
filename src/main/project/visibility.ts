import ignore, { type Ignore } from 'ignore'

// What the agent's file tools may see: `.git` never, and nothing a `.naoignore` pattern matches.

/** Folders that are never shown to the agent nor watched, wherever they are. */
export const ALWAYS_HIDDEN_FOLDERS: readonly string[] = ['.git', 'node_modules']

const matchers = new WeakMap<readonly string[], Ignore>()

/** The meaningful lines of a `.naoignore` file (blank lines and comments dropped). */
export function parseIgnorePatterns(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
}

/**
 * True when a project-relative path (forward slashes) is hidden from the agent. A path that is not a plain
 * relative path (absolute, `../`) is hidden too: it is not the project's to show.
 */
export function isHidden(relPath: string, ignorePatterns: readonly string[] = []): boolean {
  const path = relPath.replace(/\\/g, '/').replace(/^\.\/+/, '').replace(/\/+$/, '')
  if (path === '' || path === '.') return false
  if (path.split('/').some((segment) => ALWAYS_HIDDEN_FOLDERS.includes(segment))) return true
  if (!ignore.isPathValid(path)) return true
  const matcher = matcherFor(ignorePatterns)
  // Checked both as a file and as a folder: callers often do not know which, and hiding is the safe side.
  return matcher.ignores(path) || matcher.ignores(path + '/')
}

function matcherFor(patterns: readonly string[]): Ignore {
  const cached = matchers.get(patterns)
  if (cached) return cached
  const matcher = ignore().add([...patterns])
  matchers.set(patterns, matcher)
  return matcher
}
