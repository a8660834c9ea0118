import { join } from 'node:path'

// What a build of the command line keeps beside itself. The bundled command line's loader (scripts/cli-start.cjs)
// hands its script a cache of values derived from the code alone, kept beside the bundle, as `__buildCache`;
// the ES module bundle (the other commands, web mode) and the app's build have none. Each may keep files derived
// from the installed packages in its build's folder (out/cli, out/main). From the sources (Electron, tsx, tests) there is neither, and each
// value is derived every time.

interface BuildCache {
  get(key: string): unknown
  set(key: string, value: unknown): void
  file(name: string): string
  writeFileLater(name: string, write: (path: string) => void): void
}

declare const __buildCache: BuildCache | undefined
/** Defined (true) in a build: by scripts/cli-bundle.mjs in both bundles, by electron.vite.config.ts in the app's. */
declare const __GLASSBOX_BUILD__: boolean | undefined

function buildCache(): BuildCache | undefined {
  return typeof __buildCache === 'undefined' ? undefined : __buildCache
}

let entryFolder: string | null = null

/**
 * Called by an entry (cli.ts, web/start.ts, the app's index.ts) with its folder: in a build, where the files
 * derived from the installed packages are kept; run from the sources, nothing.
 */
export function keepBuildFilesBeside(folder: string): void {
  if (typeof __GLASSBOX_BUILD__ !== 'undefined') entryFolder = folder
}

/**
 * `derive()`, or what it gave in an earlier run of this build. Only for a value that the code alone decides
 * (never the project, the settings, the machine or the clock) and that survives JSON.
 */
export function derivedFromCode<T>(key: string, derive: () => T): T {
  const cache = buildCache()
  if (!cache) return derive()
  const known = cache.get(key)
  if (known !== undefined) return known as T
  const value = derive()
  cache.set(key, value)
  return value
}

/** A file of data derived from the installed packages, kept in the build's folder (null outside a build). */
export interface BuildFile {
  path: string
  /** Has `write(path)` called once the run is done, or soon (a failure only costs the speed-up). */
  writeLater(write: (path: string) => void): void
}

export function fileBesideBuild(name: string): BuildFile | null {
  const cache = buildCache()
  if (cache) return { path: cache.file(name), writeLater: (write) => cache.writeFileLater(name, write) }
  if (entryFolder === null) return null
  const path = join(entryFolder, name)
  // The ES module bundle's commands and web mode have no end of run to wait for: written once this turn is done.
  return { path, writeLater: (write) => setImmediate(() => writeQuietly(write, path)) }
}

function writeQuietly(write: (path: string) => void, path: string): void {
  try {
    write(path)
  } catch {
    // A folder that cannot be written only costs the speed-up.
  }
}
