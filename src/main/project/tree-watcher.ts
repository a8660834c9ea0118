import { createRequire } from 'node:module'
import type { Worker } from 'node:worker_threads'
import { workerThreads } from '../lazy-builtin'
import { ALWAYS_HIDDEN_FOLDERS } from './visibility'

// The project's watcher (chokidar) runs in a worker thread. Its initial scan of a big project stats every
// entry and adds a watch per folder, and all of that runs as callbacks on the thread chokidar runs on: on the
// main thread, the large project's scan (20,000 entries) kept it busy for its whole ~2 s, with stretches of
// 200 ms in which no timer, IPC message, HTTP request or prompt got a turn. In the worker, the main thread
// only hears of changes, in batches. (VS Code's file watcher runs apart from its main process for the same
// reason.) The prompt's own folders keep their direct watches on the main thread (prompt-watches.ts), which
// the event fence relies on.

/** What the watcher reports, as chokidar gives it: a path event, a raw fs.watch event, a failure. */
export interface TreeWatcherEvents {
  /** chokidar's 'all': something at `path` (absolute) was added, changed or removed. */
  onPath: (path: string) => void
  /** chokidar's 'raw': an event of the folder watch at `folder` (absolute; null when it cannot say), about `name` in it. */
  onRaw: (folder: string | null, name: string | null) => void
  /**
   * What changed is unknown: the watcher failed, its thread ended before it was closed, or a thread started in
   * place of one that ended is ready.
   */
  onError: () => void
}

export interface TreeWatcher {
  /** Resolves once the initial scan is done (every folder watched), or the watcher failed or closed first. */
  ready: Promise<void>
  close(): Promise<void>
}

type WorkerMessage = ['path', string] | ['raw', string | null, string | null] | ['error'] | ['ready']

// Plain JavaScript, evaluated in the worker (see pattern-worker.ts): it runs the same under tsx, vitest and
// the bundles. chokidar is required by the path resolved here. Folders only: a folder's own watch reports
// every change to the files in it (the 'raw' events); a watch per file would cost a handle and a stat each,
// seconds on a 15,000-file project. Events go out once per turn of the worker's loop, in one message.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { relative, sep } = require('node:path')
const { watch } = require(workerData.chokidar)
const { root, hiddenFolders } = workerData
const isHidden = (path) => relative(root, path).split(sep).some((segment) => hiddenFolders.includes(segment))
let queued = []
const send = (message) => {
  if (queued.length === 0) setImmediate(() => {
    parentPort.postMessage(queued)
    queued = []
  })
  queued.push(message)
}
const watcher = watch(root, {
  ignoreInitial: true,
  followSymlinks: false,
  // Batching already absorbs an editor's delete-then-write save; no need for chokidar's 100 ms hold.
  atomic: false,
  ignored: (path, stats) => (stats !== undefined && !stats.isDirectory()) || isHidden(path)
})
watcher.on('all', (_event, path) => send(['path', path]))
watcher.on('raw', (_event, name, details) => {
  const folder = details && typeof details.watchedPath === 'string' ? details.watchedPath : null
  send(['raw', folder, typeof name === 'string' && name !== '' ? name : null])
})
watcher.on('error', () => send(['error']))
watcher.once('ready', () => send(['ready']))
parentPort.on('message', (message) => {
  if (message === 'close') void watcher.close().finally(() => parentPort.close())
})
`

/** A thread that ends without being closed (a crash in the watcher) is started again, this many times at most. */
const MAX_RESTARTS = 3
const RESTART_DELAY_MS = 1000

/**
 * Starts watching the folder tree at `root` (absolute, real) in a worker thread. `watcherModule`: the file the
 * thread loads chokidar's `watch` from (chokidar's own, unless a test gives another).
 */
export function startTreeWatcher(root: string, events: TreeWatcherEvents, watcherModule = createRequire(import.meta.url).resolve('chokidar')): TreeWatcher {
  let closing = false
  let restarts = 0
  let markReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  let current: { worker: Worker; exited: Promise<void> } | null = null
  let restartTimer: NodeJS.Timeout | null = null

  const start = (restarted: boolean): void => {
    let worker: Worker
    try {
      worker = new (workerThreads().Worker)(WORKER_SOURCE, {
        eval: true,
        workerData: { root, hiddenFolders: ALWAYS_HIDDEN_FOLDERS, chokidar: watcherModule }
      })
    } catch {
      // No thread to be had now (out of memory or threads): as if one had ended at once.
      return ended()
    }
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
    current = { worker, exited }
    worker.on('message', (messages: WorkerMessage[]) => {
      if (closing) return
      for (const message of messages) {
        if (message[0] === 'path') events.onPath(message[1])
        else if (message[0] === 'raw') events.onRaw(message[1], message[2])
        else if (message[0] === 'error') events.onError()
        else if (restarted) events.onError() // what changed while no thread watched is unknown
        else markReady()
      }
    })
    // An error ends the thread too ('exit' follows).
    worker.on('error', () => undefined)
    void exited.then(ended)
  }
  const ended = (): void => {
    markReady()
    if (closing) return
    current = null
    events.onError()
    if (restarts >= MAX_RESTARTS) return
    restarts++
    restartTimer = setTimeout(() => {
      restartTimer = null
      if (!closing) start(true)
    }, RESTART_DELAY_MS)
  }
  start(false)

  return {
    ready,
    async close() {
      closing = true
      markReady()
      if (restartTimer) clearTimeout(restartTimer)
      const running = current
      if (!running) return
      running.worker.postMessage('close')
      // chokidar's close releases its watches; a thread that does not end soon is ended.
      const timer = setTimeout(() => void running.worker.terminate(), 2000)
      await running.exited
      clearTimeout(timer)
    }
  }
}
