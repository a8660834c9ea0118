import { realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as workerThreads from 'node:worker_threads'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { startTreeWatcher } from './tree-watcher'

// The first thread cannot be had (as when a process is out of threads or memory); the ones after can.
let refusals = 1
vi.mock('../lazy-builtin', () => ({
  workerThreads: () => ({
    ...workerThreads,
    Worker: function (...args: ConstructorParameters<typeof workerThreads.Worker>) {
      if (refusals-- > 0) throw new Error('ERR_WORKER_INIT_FAILED')
      return new workerThreads.Worker(...args)
    }
  })
}))

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('startTreeWatcher without a thread at first', () => {
  it('tells that what changed is unknown, is ready, and watches once a thread can be started', async () => {
    const temp = makeTempDir('glassbox-tree-watcher-')
    cleanups.push(temp.cleanup)
    const root = realpathSync(temp.dir)
    const raw: Array<string | null> = []
    let errors = 0
    const watcher = startTreeWatcher(root, { onPath: () => undefined, onRaw: (_folder, name) => raw.push(name), onError: () => errors++ })
    cleanups.push(() => watcher.close())
    await watcher.ready
    expect(errors).toBe(1)
    // The thread started in its place reports that it is ready (a second 'unknown'), then watches.
    for (let waited = 0; errors < 2; waited += 20) {
      if (waited > 10_000) throw new Error('no thread was started in place of the one refused')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    for (let waited = 0; !raw.includes('later.md'); waited += 20) {
      if (waited > 10_000) throw new Error('the thread started later never reported the change')
      if (waited % 200 === 0) writeFileSync(join(root, 'later.md'), String(waited))
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })
})
