import ignore, { type Ignore } from 'ignore'
import { posix } from 'node:path'

// What the agent's file tools may see: `.git` never, and nothing a `.naoignore` pattern matches.

/**
 * Names that are never shown to the agent nor watched, wherever they are: folders, and the manifest sync
 * keeps in each table folder (data/table-folder.ts SYNC_MANIFEST), which is bookkeeping, not context.
 */
export const ALWAYS_HIDDEN_FOLDERS: readonly string[] = ['.git', 'node_modules', '.glassbox-sync.json']

const visibilities = new WeakMap<readonly string[], Visibility>()

/** The patterns of a project without .naoignore; one shared array so its answers are remembered too. */
export const NO_PATTERNS: readonly string[] = Object.freeze([])

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
export function isHidden(relPath: string, ignorePatterns: readonly string[] = NO_PATTERNS): boolean {
  const path = posix.normalize(relPath.replace(/\\/g, '/')).replace(/\/+$/, '')
  if (path === '.') return false
  if (!ignore.isPathValid(path)) return true
  // Checked both as a file and as a folder: callers often do not know which, and hiding is the safe side.
  const visibility = visibilityFor(ignorePatterns)
  return visibility.isHidden(path, 'file') || visibility.isHidden(path, 'dir')
}

/**
 * Answers "is this path hidden?" for one set of patterns, remembering answers: a project's paths are asked
 * about on every rebuild, and `ignore` costs microseconds per path, which adds up over 20,000 files.
 */
export class Visibility {
  private readonly matcher: Ignore
  private readonly answers = new Map<string, boolean>()
  /**
   * Pattern answers by last path segment, when no pattern has a slash but a trailing one (the usual `*.j2`,
   * `templates/`): then whether a path is hidden depends only on its folder and its name, so 15,000 files
   * named columns.md, preview.md, … cost a handful of pattern matches instead of one each.
   */
  private readonly names: Map<string, boolean> | null

  constructor(private readonly patterns: readonly string[]) {
    this.matcher = ignore().add([...patterns])
    this.names = patterns.every(matchesNamesOnly) ? new Map() : null
  }

  /** `relPath` must be a clean project-relative path (as the tree holds them). */
  isHidden(relPath: string, kind: 'file' | 'dir'): boolean {
    const key = kind === 'dir' ? relPath + '/' : relPath
    // Files are many and cheap to answer by name: only folders' answers are kept by path.
    const known = kind === 'file' && this.names ? undefined : this.answers.get(key)
    if (known !== undefined) return known
    const slash = relPath.lastIndexOf('/')
    const name = relPath.slice(slash + 1)
    // Nothing inside a hidden folder can be shown again (gitignore semantics), so the parent decides first.
    const hidden =
      ALWAYS_HIDDEN_FOLDERS.includes(name) ||
      (slash !== -1 && this.isHidden(relPath.slice(0, slash), 'dir')) ||
      (this.patterns.length > 0 && this.matches(key, kind === 'dir' ? name + '/' : name))
    if (kind === 'dir' || !this.names) this.answers.set(key, hidden)
    return hidden
  }

  /** Whether the patterns match `key`; by its last segment alone when no pattern can see more of it. */
  private matches(key: string, lastSegment: string): boolean {
    if (!this.names) return this.matcher.ignores(key)
    let matched = this.names.get(lastSegment)
    if (matched === undefined) {
      matched = this.matcher.ignores(lastSegment)
      this.names.set(lastSegment, matched)
    }
    return matched
  }

  /** Forgets answers once they far outnumber the paths that exist, so a long session does not grow. */
  trim(liveCount: number): void {
    if (this.answers.size > 4 * liveCount + 1000) this.answers.clear()
    if (this.names && this.names.size > 4 * liveCount + 1000) this.names.clear()
  }
}

/** A pattern that can only match a path's last segment: no slash except one at the end (`!` aside). */
function matchesNamesOnly(pattern: string): boolean {
  const body = pattern.startsWith('!') ? pattern.slice(1) : pattern
  const slash = body.indexOf('/')
  return slash === -1 || slash === body.length - 1
}

/** The shared Visibility for a patterns array (cached by identity; the parsed .naoignore is reused). */
export function visibilityFor(patterns: readonly string[]): Visibility {
  const cached = visibilities.get(patterns)
  if (cached) return cached
  const visibility = new Visibility(patterns)
  visibilities.set(patterns, visibility)
  return visibility
}
