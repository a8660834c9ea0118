import type { ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { childProcess } from '../lazy-builtin'
import { resolveTrustedServer } from '../trust/server-trust'
import { childReplySchema, exitReason, QUERY_PROCESS_HEAP_MB, type ChildReply, type ChildRequest } from './query-protocol'
import { QueryCancelledError, QueryTimeoutError, StatementRefusedError, type QueryRequest, type QueryResult } from './query-result'
import { DEFAULT_MAX_CELL_CHARS, DEFAULT_MAX_RESULT_BYTES } from './result-budget'
import type { ServerConnection } from './server-config'

// Server queries run in a child process (query-child.ts), one per host (a pool, a sync), started on the
// first query with a capped heap. The app keeps only what the child sends back, already cut to the result
// budget, so a query that would make the driver crash or grow without bound ends the child: the query is a
// tool error, and the next query starts a fresh child. The trust gate is asked here, in the app; the child
// gets the approved, resolved connection and nothing else (not the environment: drivers such as pg would
// read PGPASSWORD and friends from it).

/** How long a Stop may take in the child (it cancels the statement on the server) before the child is killed. */
const STOP_GRACE_MS = 2_000
/** How long past the query's own time limit (the server's, then the child's timer) before the child is killed. */
const HANG_GRACE_MS = 5_000

export interface ServerQueryHost {
  run: (server: ServerConnection, request: QueryRequest) => Promise<QueryResult>
  close: () => void
}

/** The query process ended under a query: the query fails with this, and the next query starts a new one. */
export class QueryEngineStoppedError extends Error {
  override name = 'QueryEngineStoppedError'
}

type Outcome = { reply: ChildReply } | { stopped: string }

interface RunningChild {
  process: ChildProcess
  jobs: Map<number, (outcome: Outcome) => void>
  stderr: string
  gone: boolean
}

/** Queries for one server engine (an `Engine.id` with a runner in query-child.ts), in a child process. */
export function createServerQueryHost(engine: string): ServerQueryHost {
  let current: RunningChild | null = null
  let nextId = 0

  const end = (child: RunningChild, reason: string): void => {
    if (child.gone) return
    child.gone = true
    if (current === child) current = null
    child.process.kill('SIGKILL')
    const waiting = [...child.jobs.values()]
    child.jobs.clear()
    for (const settle of waiting) settle({ stopped: reason })
  }

  const start = (): RunningChild => {
    const entry = childEntry()
    const started = childProcess().fork(entry.path, [], {
      execPath: process.execPath,
      execArgv: [`--max-old-space-size=${QUERY_PROCESS_HEAP_MB}`, ...entry.execArgv],
      // ELECTRON_RUN_AS_NODE: under Electron the child is the Electron binary, run as plain Node. Windows
      // needs SystemRoot for sockets; nothing else of the user's environment is passed.
      env: { ELECTRON_RUN_AS_NODE: '1', ...(process.platform === 'win32' && process.env.SystemRoot ? { SystemRoot: process.env.SystemRoot } : {}) },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json'
    })
    const child: RunningChild = { process: started, jobs: new Map(), stderr: '', gone: false }
    started.stderr?.on('data', (chunk: Buffer) => void (child.stderr = (child.stderr + chunk.toString('utf8')).slice(-8_000)))
    started.on('message', (message: unknown) => {
      const reply = childReplySchema().safeParse(message)
      if (!reply.success) return end(child, 'it sent an unreadable reply')
      child.jobs.get(reply.data.id)?.({ reply: reply.data })
    })
    // 'close', not 'exit': by then stderr is read to the end, and it says why.
    started.on('close', (code, signal) => end(child, exitReason(child.stderr, code, signal)))
    started.on('error', (error) => end(child, error.message))
    holdOpen(child, false)
    return child
  }

  const runOne = (trusted: Awaited<ReturnType<typeof resolveTrustedServer>>, request: QueryRequest): Promise<QueryResult> =>
    new Promise((resolve, reject) => {
      const child = current && !current.gone ? current : (current = start())
      const id = ++nextId
      let why: 'cancel' | 'timeout' | null = null
      let stopTimer: NodeJS.Timeout | undefined
      const onAbort = (): void => {
        why = 'cancel'
        send(child, { type: 'cancel', id })
        stopTimer = setTimeout(() => end(child, 'it did not answer Stop'), STOP_GRACE_MS)
      }
      const hangTimer = setTimeout(() => {
        why = 'timeout'
        end(child, 'it did not answer within the time limit')
      }, request.timeoutMs + HANG_GRACE_MS)
      child.jobs.set(id, (outcome) => {
        child.jobs.delete(id)
        clearTimeout(hangTimer)
        clearTimeout(stopTimer)
        request.signal.removeEventListener('abort', onAbort)
        holdOpen(child, child.jobs.size > 0)
        if ('reply' in outcome) return settleReply(outcome.reply, request, resolve, reject)
        if (why === 'cancel') return reject(new QueryCancelledError())
        if (why === 'timeout') return reject(new QueryTimeoutError(request.timeoutMs))
        reject(new QueryEngineStoppedError(outcome.stopped))
      })
      holdOpen(child, true)
      request.signal.addEventListener('abort', onAbort, { once: true })
      send(child, {
        type: 'run',
        id,
        engine,
        server: trusted,
        sql: request.sql,
        keepRows: request.keepRows,
        maxBytes: request.maxBytes ?? DEFAULT_MAX_RESULT_BYTES,
        maxCellChars: request.maxCellChars ?? DEFAULT_MAX_CELL_CHARS,
        timeoutMs: request.timeoutMs
      })
    })

  const send = (child: RunningChild, message: ChildRequest): void => {
    if (child.gone) return
    child.process.send(message, (error) => {
      if (error) end(child, `it could not be reached (${error.message})`)
    })
  }

  return {
    run: async (server, request) => {
      if (request.signal.aborted) throw new QueryCancelledError()
      // Nothing is sent, to the child or the server, before the user approved this server (in this context).
      const trusted = await resolveTrustedServer(server, engine)
      if (request.signal.aborted) throw new QueryCancelledError()
      return runOne(trusted, request)
    },
    close: () => {
      if (current) end(current, 'the connection was closed')
    }
  }
}

function settleReply(reply: ChildReply, request: QueryRequest, resolve: (result: QueryResult) => void, reject: (error: Error) => void): void {
  if (reply.ok) {
    const { columns, rows, totalRows, truncatedAtBytes } = reply
    return resolve({ columns, rows, totalRows, ...(truncatedAtBytes !== null ? { truncatedAtBytes } : {}) })
  }
  if (reply.kind === 'timeout') return reject(new QueryTimeoutError(request.timeoutMs))
  if (reply.kind === 'cancelled') return reject(new QueryCancelledError())
  if (reply.kind === 'refused') return reject(new StatementRefusedError(reply.message))
  reject(new Error(reply.message))
}

/** An idle child must not keep the app (the CLI) from exiting; one with a query running must. */
function holdOpen(child: RunningChild, busy: boolean): void {
  if (child.gone) return
  if (busy) {
    child.process.ref()
    child.process.channel?.ref()
  } else {
    child.process.unref()
    child.process.channel?.unref()
  }
  const stderr = child.process.stderr as (NodeJS.ReadableStream & { ref?: () => void; unref?: () => void }) | null
  if (busy) stderr?.ref?.()
  else stderr?.unref?.()
}

/** The child's entry: the TypeScript source (run through tsx) beside this file, or the built query-child.js. */
function childEntry(): { path: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url)
  if (here.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
    return { path: join(dirname(here), 'query-child.ts'), execArgv: ['--import', tsx] }
  }
  // Bundles put this module in the entry's folder or in a chunks/ folder below it.
  const built = [join(dirname(here), 'query-child.js'), join(dirname(here), '..', 'query-child.js')].find((path) => existsSync(path))
  if (!built) throw new Error(`The query engine (query-child.js) is missing beside ${here}; rebuild the app.`)
  return { path: built, execArgv: [] }
}
