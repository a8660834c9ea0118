import { workerThreads } from '../../lazy-builtin'

// Regular expressions come from the model and JavaScript's engine backtracks: `^(a+)+$` against 30 `a`s and
// a `!` takes minutes, and nothing can interrupt a running RegExp on the thread that runs it. So every
// pattern the file tools test runs here, in a worker thread the caller terminates at its deadline: the main
// thread (the UI's IPC, web mode's HTTP server) never waits on a regex.

/** One pattern, as `new RegExp(source, flags)` takes it. */
export interface PatternSource {
  source: string
  flags: string
}

/** Per item (a file's text, or a path): matching line numbers (0-based), or [0] for a matching whole item. */
export type ItemHits = number[]

export type BatchOutcome =
  | { kind: 'done'; hits: ItemHits[] }
  /** The deadline passed; `itemsDone` items of the batch had reported, and `stuckMs` is how long the
   *  worker had been on item `stuckIndex` (long = the pattern, not the amount of text, is the cost). */
  | { kind: 'deadline'; hits: ItemHits[]; itemsDone: number; stuckIndex: number; stuckMs: number }
  | { kind: 'aborted'; hits: ItemHits[]; itemsDone: number }

export interface PatternWorker {
  /**
   * Tests `items` in the worker: `lines` mode tests every line of each item, `whole` mode each item as one
   * string. Resolves by `deadline` (epoch ms) at the latest; after 'deadline' or 'aborted' the worker is
   * gone and the caller must stop.
   */
  run(items: readonly string[], mode: 'lines' | 'whole', deadline: number, signal?: AbortSignal): Promise<BatchOutcome>
  close(): Promise<void>
}

// Plain JavaScript, evaluated in the worker: no module to resolve, so it runs the same under tsx, vitest and
// the electron-vite bundle. It reports what it has finished at least every REPORT_MS, so a deadline keeps
// the results so far and knows whether one item held the pattern for long.
const REPORT_MS = 20
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const patterns = workerData.patterns.map((p) => new RegExp(p.source, p.flags))
const current = new Float64Array(workerData.current)
const test = (text) => patterns.some((pattern) => { pattern.lastIndex = 0; return pattern.test(text) })
parentPort.on('message', ({ id, items, mode }) => {
  parentPort.postMessage({ id, hits: [] }) // started: a slow thread start-up is not the pattern's cost
  let pending = []
  let reportedAt = Date.now()
  for (let index = 0; index < items.length; index++) {
    current[0] = index
    current[1] = Date.now()
    const found = []
    if (mode === 'whole') {
      if (test(items[index])) found.push(0)
    } else {
      const lines = items[index].split(/\\r?\\n/)
      for (let line = 0; line < lines.length; line++) if (test(lines[line])) found.push(line)
    }
    pending.push(found)
    if (Date.now() - reportedAt >= ${REPORT_MS}) {
      parentPort.postMessage({ id, hits: pending })
      pending = []
      reportedAt = Date.now()
    }
  }
  parentPort.postMessage({ id, hits: pending, done: true })
})
`

interface WorkerReply {
  id: number
  /** Hits of the next items of the batch, in order. */
  hits: ItemHits[]
  done?: boolean
}

/** Starts a worker for `patterns`; throws a SyntaxError at once for an invalid pattern (checked here first). */
export function startPatternWorker(patterns: readonly PatternSource[]): PatternWorker {
  for (const pattern of patterns) new RegExp(pattern.source, pattern.flags) // compiling is linear; testing is not
  // [index of the item being tested, when its test began]: written by the worker before each item, so a
  // deadline names the item that held the pattern even between progress reports.
  const currentItem = new SharedArrayBuffer(16)
  const current = new Float64Array(currentItem)
  const worker = new (workerThreads().Worker)(WORKER_SOURCE, {
    eval: true,
    workerData: { patterns, current: currentItem },
    // A regex that also allocates without end must not take the process's memory with it.
    resourceLimits: { maxOldGenerationSizeMb: 128 }
  })
  worker.unref()
  let nextId = 0
  let gone = false
  let failure: Error | null = null
  worker.on('error', (error) => {
    failure = error
  })
  worker.on('exit', () => {
    gone = true
  })

  const stop = (): void => {
    if (gone) return
    gone = true
    void worker.terminate()
  }

  return {
    run: (items, mode, deadline, signal) =>
      new Promise<BatchOutcome>((resolve, reject) => {
        if (gone) return reject(failure ?? new Error('The pattern worker has stopped.'))
        const id = nextId++
        const hits: ItemHits[] = []
        let started = false
        const finish = (outcome: BatchOutcome | Error): void => {
          clearTimeout(timer)
          worker.off('message', onMessage)
          worker.off('error', onError)
          worker.off('exit', onExit)
          signal?.removeEventListener('abort', onAbort)
          if (outcome instanceof Error) reject(outcome)
          else resolve(outcome)
        }
        const onMessage = (reply: WorkerReply): void => {
          if (reply.id !== id) return
          for (const hit of reply.hits) hits.push(hit)
          started = true
          if (reply.done) finish({ kind: 'done', hits })
        }
        const onError = (error: Error): void => finish(error)
        const onExit = (): void => finish(failure ?? new Error('The pattern worker stopped unexpectedly.'))
        const onAbort = (): void => {
          stop()
          finish({ kind: 'aborted', hits, itemsDone: hits.length })
        }
        const timer = setTimeout(() => {
          stop()
          finish({ kind: 'deadline', hits, itemsDone: hits.length, stuckIndex: started ? current[0] : hits.length, stuckMs: started ? Date.now() - current[1] : 0 })
        }, Math.max(0, deadline - Date.now()))
        worker.on('message', onMessage)
        worker.on('error', onError)
        worker.on('exit', onExit)
        if (signal?.aborted) return onAbort()
        signal?.addEventListener('abort', onAbort, { once: true })
        worker.postMessage({ id, items, mode })
      }),
    close: async () => {
      if (gone) return
      gone = true
      await worker.terminate()
    }
  }
}
