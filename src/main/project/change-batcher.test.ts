import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ChangeBatcher, type ChangeBatch } from './change-batcher'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

function makeBatcher(applyMs = 0): { batcher: ChangeBatcher; batches: ChangeBatch[] } {
  const batches: ChangeBatch[] = []
  const apply = async (batch: ChangeBatch): Promise<void> => {
    batches.push(batch)
    if (applyMs > 0) await new Promise((resolve) => setTimeout(resolve, applyMs))
  }
  return { batcher: new ChangeBatcher(apply, { debounceMs: 200, maxWaitMs: 1000, maxPaths: 3 }), batches }
}

describe('ChangeBatcher', () => {
  it('applies once changes are quiet for the debounce time', async () => {
    const { batcher, batches } = makeBatcher()
    batcher.add('a.md')
    await vi.advanceTimersByTimeAsync(150)
    batcher.add('b.md')
    await vi.advanceTimersByTimeAsync(199)
    expect(batches).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(batches).toEqual([{ paths: new Set(['a.md', 'b.md']), full: false }])
  })

  it('applies after the longest wait even if changes never stop', async () => {
    const { batcher, batches } = makeBatcher()
    for (let elapsed = 0; elapsed < 1000; elapsed += 100) {
      batcher.add(`f${elapsed % 3}.md`)
      await vi.advanceTimersByTimeAsync(100)
    }
    expect(batches).toHaveLength(1)
  })

  it('rescans at once on request, taking in what was pending, and says nothing is known while it runs', async () => {
    const { batcher, batches } = makeBatcher(50)
    batcher.add('a.md')
    expect(batcher.pendingPaths()).toEqual(new Set(['a.md']))
    const rescan = batcher.rescanNow()
    await vi.advanceTimersByTimeAsync(0)
    expect(batches).toEqual([{ paths: new Set(), full: true }])
    batcher.add('b.md')
    expect(batcher.pendingPaths()).toBeNull()
    await vi.advanceTimersByTimeAsync(50)
    await rescan
    expect(batcher.pendingPaths()).toEqual(new Set(['b.md']))
    await vi.advanceTimersByTimeAsync(250)
    expect(batches).toEqual([{ paths: new Set(), full: true }, { paths: new Set(['b.md']), full: false }])
  })

  it('turns a batch with too many paths into a full rescan', async () => {
    const { batcher, batches } = makeBatcher()
    for (const path of ['a', 'b', 'c', 'd', 'e']) batcher.add(path)
    await vi.advanceTimersByTimeAsync(200)
    expect(batches).toEqual([{ paths: new Set(), full: true }])
  })

  it('never runs two batches at once, and applies what arrived meanwhile afterwards', async () => {
    const { batcher, batches } = makeBatcher(500)
    batcher.add('a.md')
    await vi.advanceTimersByTimeAsync(200)
    batcher.add('b.md')
    await vi.advanceTimersByTimeAsync(250)
    expect(batches).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(300)
    expect(batches.map((batch) => [...batch.paths])).toEqual([['a.md'], ['b.md']])
  })

  it('applies the paths a prompt waits for at once, and leaves other pending changes to the debounce', async () => {
    const { batcher, batches } = makeBatcher()
    batcher.add('a.md')
    batcher.add('docs/b.md')
    await batcher.applyNow(['a.md'])
    expect(batches).toEqual([{ paths: new Set(['a.md']), full: false }])
    await vi.advanceTimersByTimeAsync(200)
    expect(batches.map((batch) => [...batch.paths])).toEqual([['a.md'], ['docs/b.md']])
  })

  it('applies the paths a prompt waits for after the batch already running, not beside it', async () => {
    const { batcher, batches } = makeBatcher(500)
    batcher.add('a.md')
    await vi.advanceTimersByTimeAsync(200)
    let applied = false
    const now = batcher.applyNow(['b.md']).then(() => (applied = true))
    await vi.advanceTimersByTimeAsync(499)
    expect(batches).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(batches.map((batch) => [...batch.paths])).toEqual([['a.md'], ['b.md']])
    expect(applied).toBe(false)
    await vi.advanceTimersByTimeAsync(500)
    await now
    expect(applied).toBe(true)
  })

  it('drops pending changes on close', async () => {
    const { batcher, batches } = makeBatcher()
    batcher.add('a.md')
    await batcher.close()
    await vi.advanceTimersByTimeAsync(500)
    expect(batches).toEqual([])
  })
})
