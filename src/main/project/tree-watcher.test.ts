import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { startTreeWatcher, type TreeWatcher } from './tree-watcher'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function recorder() {
  const paths: string[] = []
  const raw: Array<[string | null, string | null]> = []
  let errors = 0
  return {
    paths,
    raw,
    errors: () => errors,
    events: { onPath: (path: string) => paths.push(path), onRaw: (folder: string | null, name: string | null) => raw.push([folder, name]), onError: () => errors++ }
  }
}

function tempRoot(): string {
  const temp = makeTempDir('glassbox-tree-watcher-')
  cleanups.push(temp.cleanup)
  return realpathSync(temp.dir)
}

function started(root: string, events: ReturnType<typeof recorder>['events'], watcherModule?: string): TreeWatcher {
  const watcher = startTreeWatcher(root, events, watcherModule)
  cleanups.push(() => watcher.close())
  return watcher
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 10_000) throw new Error(`never saw ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('startTreeWatcher', () => {
  it('reports a new folder and a file written in a watched one, nothing under node_modules or .git, and nothing once closed', async () => {
    const root = tempRoot()
    mkdirSync(join(root, 'docs'))
    mkdirSync(join(root, 'node_modules', 'pkg'), { recursive: true })
    mkdirSync(join(root, '.git'))
    const seen = recorder()
    const watcher = started(root, seen.events)
    await watcher.ready

    writeFileSync(join(root, 'docs', 'guide.md'), 'hello')
    await until(() => seen.raw.some(([folder, name]) => folder === join(root, 'docs') && name === 'guide.md'), 'the file written in docs/')
    mkdirSync(join(root, 'added'))
    await until(() => seen.paths.includes(join(root, 'added')), 'the new folder')
    writeFileSync(join(root, 'node_modules', 'pkg', 'index.js'), '')
    writeFileSync(join(root, '.git', 'HEAD'), '')
    // A change in a watched folder after them: once it is seen, theirs would have been too.
    writeFileSync(join(root, 'docs', 'after.md'), '')
    await until(() => seen.raw.some(([, name]) => name === 'after.md'), 'the file written after the hidden ones')
    const named = [...seen.paths, ...seen.raw.map(([folder, name]) => join(folder ?? '', name ?? ''))]
    expect(named.filter((path) => path.includes(join(root, 'node_modules', 'pkg')) || path.includes(join(root, '.git') + '/'))).toEqual([])
    expect(seen.errors()).toBe(0)

    await watcher.close()
    const heard = seen.raw.length + seen.paths.length
    writeFileSync(join(root, 'docs', 'closed.md'), '')
    mkdirSync(join(root, 'after-close'))
    await sleep(300)
    expect(seen.raw.length + seen.paths.length).toBe(heard)
  })

  it('starts a thread again when one crashes, and tells that what changed meanwhile is unknown', async () => {
    const root = tempRoot()
    const crashed = join(root, 'crashed-once')
    // A stand-in for chokidar: the first thread's watcher crashes once ready; the next one reports a change.
    const watcherModule = join(root, 'crashing-watcher.cjs')
    writeFileSync(
      watcherModule,
      `const { existsSync, writeFileSync } = require('node:fs')
const { EventEmitter } = require('node:events')
exports.watch = (root) => {
  const watcher = Object.assign(new EventEmitter(), { close: async () => {} })
  const second = existsSync(${JSON.stringify(crashed)})
  setImmediate(() => {
    watcher.emit('ready')
    if (second) return setTimeout(() => watcher.emit('raw', 'change', 'after-restart.md', { watchedPath: root }), 20)
    writeFileSync(${JSON.stringify(crashed)}, '')
    setTimeout(() => { throw new Error('the watcher crashed') }, 20)
  })
  return watcher
}
`
    )
    const seen = recorder()
    const watcher = started(root, seen.events, watcherModule)
    await watcher.ready
    await until(() => seen.raw.some(([folder, name]) => folder === root && name === 'after-restart.md'), 'the change the restarted watcher reports')
    // Once when the thread ended, once when the new one was ready.
    expect(seen.errors()).toBe(2)
  })

  it('tells of a failure, and is ready, when its thread ends without being closed', async () => {
    const root = tempRoot()
    const broken = join(root, 'broken-watcher.cjs')
    writeFileSync(broken, "throw new Error('this watcher cannot start')\n")
    const seen = recorder()
    const watcher = started(root, seen.events, broken)
    await watcher.ready
    await until(() => seen.errors() === 1, 'the failure')
  })
})
