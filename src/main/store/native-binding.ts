import { existsSync } from 'node:fs'
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
 * else undefined (better-sqlite3's own lookup in node_modules).
 */
export function resolveNativeBinding(
  explicit: string | undefined,
  versions: { electron?: string } = process.versions,
  appRoot: string | null = findAppRoot(import.meta.dirname ?? process.cwd())
): string | undefined {
  if (explicit) return explicit
  if (!versions.electron || appRoot === null) return undefined
  const candidate = join(appRoot, ELECTRON_BINDING)
  return existsSync(candidate) ? candidate : undefined
}
