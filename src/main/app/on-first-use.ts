// A service whose code loads the first time it is asked for, so a command that never uses it (`glassbox
// prompt`) never pays for loading it. Concurrent first calls share one load.

export interface OnFirstUse<T> {
  /** The service, loading its code first if nobody has asked for it yet. */
  get(): Promise<T>
  /** The service if it has been asked for and is loaded, else null (for close and cancel: nothing to do). */
  loaded(): T | null
}

export function onFirstUse<T>(load: () => Promise<T>): OnFirstUse<T> {
  let loading: Promise<T> | null = null
  let value: T | null = null
  return {
    get() {
      loading ??= load().then((loadedValue) => (value = loadedValue))
      return loading
    },
    loaded: () => value
  }
}
