import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

// better-sqlite3 is a native module compiled for one ABI. node_modules holds the Node build (tests, CLI, web
// mode); `scripts/build-electron-sqlite.mjs` puts an Electron build in `.native/electron/`. The app picks the
// Electron one when it runs under Electron, so neither ever has to be rebuilt over the other.

export const ELECTRON_BINDING = join('.native', 'electron', 'better_sqlite3.node')

/** The nearest folder at or above `start` that holds a package.json (the app's root, in dev and when built). */
export function findAppRoot(start: string): string | null {
  let dir = start
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

/**
 * The binding to load: the explicit one, else under Electron the `.native/electron` build if it exists,
 * else under Node better-sqlite3's own build in node_modules, named directly; undefined leaves it to
 * better-sqlite3's lookup (the `bindings` package tries a dozen paths, each a failed require: ~1.5 ms).
 */
export function resolveNativeBinding(
  explicit: string | undefined,
  versions: { electron?: string } = process.versions,
  /** The app's root; found from this file when not given (only under Electron, where it is needed). */
  appRoot?: string | null
): string | undefined {
  if (explicit) return explicit
  if (!versions.electron) return nodeBuild()
  const root = appRoot === undefined ? findAppRoot(import.meta.dirname ?? process.cwd()) : appRoot
  if (root === null) return undefined
  const candidate = join(root, ELECTRON_BINDING)
  return existsSync(candidate) ? candidate : undefined
}

/** Where better-sqlite3's install script (node-gyp) puts its build for this Node. */
const NODE_BUILD = join('build', 'Release', 'better_sqlite3.node')

function nodeBuild(): string | undefined {
  try {
    const candidate = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), NODE_BUILD)
    return existsSync(candidate) ? candidate : undefined
  } catch {
    return undefined
  }
}
