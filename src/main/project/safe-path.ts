import { lstatSync, realpathSync } from 'node:fs'
import { isAbsolute, relative, resolve, sep } from 'node:path'

// The one gate every project-driven or model-driven file read goes through: the target is resolved
// (symlinks included) and must stay inside the project's real path.

/** The path leaves the project folder (`../`, an absolute path elsewhere, or a symlink pointing out). */
export class PathOutsideProjectError extends Error {
  constructor(
    readonly requested: string,
    readonly reason: string
  ) {
    super(`Refused "${requested}": ${reason}. Only files inside the project folder can be read.`)
    this.name = 'PathOutsideProjectError'
  }
}

/** The path is inside the project but nothing readable is there (missing file or broken symlink). */
export class ProjectPathMissingError extends Error {
  constructor(
    readonly requested: string,
    readonly reason: string
  ) {
    super(`Cannot read "${requested}": ${reason}.`)
    this.name = 'ProjectPathMissingError'
  }
}

/**
 * True when `target` is `root` itself or below it; both must already be resolved. Checks for a `..` segment
 * rather than a `..` prefix so a file named `..notes.md` at the root still counts as inside.
 */
export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target)
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel))
}

/**
 * Resolves a project-relative (or absolute) path to its real absolute path, refusing anything that ends up
 * outside the project. Throws PathOutsideProjectError or ProjectPathMissingError.
 */
export function resolveInside(rootReal: string, relOrAbs: string): string {
  const root = realPath(rootReal)
  const lexical = resolve(root, relOrAbs)
  if (!isInside(root, lexical)) {
    const reason = isAbsolute(relOrAbs) ? 'it is an absolute path outside the project' : 'it climbs out of the project with ../'
    throw new PathOutsideProjectError(relOrAbs, reason)
  }
  let real: string
  try {
    real = realPath(lexical)
  } catch {
    throw new ProjectPathMissingError(relOrAbs, isSymlink(lexical) ? 'it is a broken symlink' : 'no such file or folder')
  }
  if (!isInside(root, real)) {
    // The target is not named: where a link points outside is not the project's to tell (it may be a secret path).
    throw new PathOutsideProjectError(relOrAbs, 'it is a symlink that leads outside the project')
  }
  return real
}

/**
 * The OS's realpath (one call) rather than Node's JavaScript one, which lstat()s every path component:
 * three times faster, and this runs for every file grep opens, on the main thread.
 */
function realPath(path: string): string {
  return realpathSync.native(path)
}

/** Project-relative path with forward slashes, as snapshots and diagnostics name files. */
export function toProjectPath(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/')
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}
