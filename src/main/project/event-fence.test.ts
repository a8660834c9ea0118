import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, watch, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { eventFenceFor } from './event-fence'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

function watchedFolder(): { dir: string; events: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-fence-test-'))
  let events = 0
  const watcher = watch(dir, () => events++)
  cleanups.push(() => {
    watcher.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { dir, events: () => events }
}

describe.runIf(process.platform === 'linux')('eventFenceFor (Linux)', () => {
  it('lets through the event of every change finished before the pass, in any watched folder', async () => {
    const folder = watchedFolder()
    const fence = eventFenceFor(folder.dir)
    expect(fence).not.toBeNull()
    // Each write's event is still in the kernel's queue when pass() is called; nothing else reads it.
    for (let round = 0; round < 200; round++) {
      const before = folder.events()
      writeFileSync(join(folder.dir, 'RULES.md'), `round ${round}`)
      expect(await fence!.pass()).toBe(true)
      expect(folder.events()).toBeGreaterThan(before)
    }
  })

  it('serves passes asked for together, each after its own touch', async () => {
    const folder = watchedFolder()
    const fence = eventFenceFor(folder.dir)!
    writeFileSync(join(folder.dir, 'a.md'), 'a')
    const first = fence.pass()
    writeFileSync(join(folder.dir, 'b.md'), 'b')
    const before = folder.events()
    const second = fence.pass()
    expect(await Promise.all([first, second])).toEqual([true, true])
    expect(folder.events()).toBeGreaterThan(before)
  })

  it('names its folder by its process, and removes the folders of processes that are gone, in the background', async () => {
    // A process killed by a signal ran no exit handler and left its folder.
    const gone = spawnSync(process.execPath, ['-e', 'process.kill(process.pid, "SIGKILL")'])
    expect(gone.signal).toBe('SIGKILL')
    const left = join(tmpdir(), `glassbox-fence-${gone.pid}-test`)
    mkdirSync(left)
    cleanups.push(() => rmSync(left, { recursive: true, force: true }))
    const ours = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`glassbox-fence-${process.pid}-`))
    const before = ours()
    // The module anew, as in a process that has made no fence yet.
    vi.resetModules()
    const fresh = await import('./event-fence')
    expect(fresh.eventFenceFor(tmpdir())).not.toBeNull()
    expect(ours()).toHaveLength(before.length + 1)
    // Not while the fence is made: the first prompt does not wait for it.
    expect(existsSync(left)).toBe(true)
    for (let wait = 0; wait < 200 && existsSync(left); wait++) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(existsSync(left)).toBe(false)
    for (const name of ours()) expect(existsSync(join(tmpdir(), name))).toBe(true)
  })

  it('gives no fence for a filesystem that can change without an event (here procfs)', () => {
    expect(eventFenceFor('/proc')).toBeNull()
  })
})

describe('eventFenceFor', () => {
  it('gives a fence on Linux only: elsewhere watches report in no common order', () => {
    expect(eventFenceFor(tmpdir()) !== null).toBe(process.platform === 'linux')
  })
})
