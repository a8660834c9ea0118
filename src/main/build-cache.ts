// Values that depend on the code alone, the same in every run of one build. The bundled command line's loader
// (scripts/cli-start.cjs) hands its script a cache of them kept beside the bundle, as `__buildCache`; anywhere
// else (the ES module bundle, Electron, tsx, tests) there is none and each is derived every time.

interface BuildCache {
  get(key: string): unknown
  set(key: string, value: unknown): void
}

declare const __buildCache: BuildCache | undefined

/**
 * `derive()`, or what it gave in an earlier run of this build. Only for a value that the code alone decides
 * (never the project, the settings, the machine or the clock) and that survives JSON.
 */
export function derivedFromCode<T>(key: string, derive: () => T): T {
  const cache = typeof __buildCache === 'undefined' ? undefined : __buildCache
  if (!cache) return derive()
  const known = cache.get(key)
  if (known !== undefined) return known as T
  const value = derive()
  cache.set(key, value)
  return value
}
