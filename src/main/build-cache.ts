// Values that depend on the code alone, the same in every run of one build. The bundled command line's loader
// (scripts/cli-start.cjs) hands its script a cache of them kept beside the bundle, as `__buildCache`; anywhere
// else (the ES module bundle, Electron, tsx, tests) there is none and each is derived every time.

interface BuildCache {
  get(key: string): unknown
  set(key: string, value: unknown): void
  file(name: string): string
  writeFileLater(name: string, write: (path: string) => void): void
}

declare const __buildCache: BuildCache | undefined

function buildCache(): BuildCache | undefined {
  return typeof __buildCache === 'undefined' ? undefined : __buildCache
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

/** A file of data derived from the installed packages, kept beside the build (null where there is no build cache). */
export interface BuildFile {
  path: string
  /** Has `write(path)` called once the run is done (a failure only costs the speed-up). */
  writeLater(write: (path: string) => void): void
}

export function fileBesideBuild(name: string): BuildFile | null {
  const cache = buildCache()
  if (!cache) return null
  return { path: cache.file(name), writeLater: (write) => cache.writeFileLater(name, write) }
}
