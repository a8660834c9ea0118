import { makeTempDir } from '../../../test/support/fixtures'
import { openStore, type OpenStoreOptions, type Store } from './open-store'

/** A store in a fresh temp folder with a clock that ticks one second per call, for tests and benches. */
export function openTempStore(options: OpenStoreOptions = {}): { store: Store; dir: string; cleanup: () => void } {
  const temp = makeTempDir('glassbox-store-')
  let tick = Date.parse('2026-01-01T00:00:00.000Z')
  const store = openStore(temp.dir, { now: () => new Date((tick += 1000)), ...options })
  return {
    store,
    dir: temp.dir,
    cleanup: () => {
      store.close()
      temp.cleanup()
    }
  }
}
