import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'

// When the tree watcher starts after an open: its thread's start holds the event loop for milliseconds, which
// the first prompt must not wait for.

const watcherStarts = vi.hoisted(() => ({ count: 0 }))
vi.mock('./tree-watcher', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./tree-watcher')>()
  return {
    ...actual,
    startTreeWatcher: (...args: Parameters<typeof actual.startTreeWatcher>) => {
      watcherStarts.count++
      return actual.startTreeWatcher(...args)
    }
  }
})
const { openProject } = await import('./watch')

let temp: ReturnType<typeof makeTempDir>
beforeEach(() => {
  watcherStarts.count = 0
  temp = makeTempDir()
  writeFileSync(join(temp.dir, 'RULES.md'), 'Answer in French.')
})
afterEach(() => temp.cleanup())

it.each([
  ['nothing changed', null],
  ['RULES.md edited right after the open', 'Answer in German.']
])('starts the watcher once the first prompt has its snapshot and the caller has used it (%s)', async (_case, edit) => {
  const model = await openProject(temp.dir)
  try {
    if (edit !== null) writeFileSync(join(temp.dir, 'RULES.md'), edit)
    const snapshot = await model.freshSnapshot()
    expect(snapshot.rules?.text).toBe(edit ?? 'Answer in French.')
    // The caller renders its prompt from here on (synchronously), before the watcher's thread starts.
    expect(watcherStarts.count).toBe(0)
    await Promise.resolve()
    expect(watcherStarts.count).toBe(0)
    await model.whenWatching()
    expect(watcherStarts.count).toBe(1)
  } finally {
    await model.close()
  }
})

it('starts it on its own when no prompt is asked for', async () => {
  const model = await openProject(temp.dir)
  try {
    await model.whenWatching()
    expect(watcherStarts.count).toBe(1)
  } finally {
    await model.close()
  }
})
