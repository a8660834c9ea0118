import type { ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import * as z from '../../../shared/zod-mini'
import { once } from '../../../shared/once'
import { QueryCancelledError, QueryTimeoutError, StatementRefusedError, toCell, type QueryRequest, type QueryResult } from '../query-result'
import { resolveNativeBinding } from '../../store/native-binding'
import { DEFAULT_MAX_CELL_CHARS, DEFAULT_MAX_RESULT_BYTES } from '../result-budget'
import { exitReason, QUERY_PROCESS_HEAP_MB } from '../query-protocol'
import { childProcess } from '../../lazy-builtin'

// SQLite queries run in a short-lived child process so a query that never ends can be stopped for real:
// a native sqlite3_step does not return to JavaScript, so neither a worker's terminate() nor a timer in
// this process can interrupt it, but SIGKILL can. better-sqlite3 exposes no authorizer, so the child relies
// on the engine: the file is opened read-only with `query_only`, the statement must be one the engine says
// returns rows (ATTACH, DETACH and VACUUM INTO do not), and its compiled program (EXPLAIN) must not call
// sqlite_attach or run Vacuum.

const CHILD_SOURCE = String.raw`
const Database = require(process.env.GLASSBOX_BETTER_SQLITE3)
function run(job) {
  let db
  try {
    const nativeBinding = process.env.GLASSBOX_SQLITE_BINDING || undefined
    db = new Database(job.path, { readonly: true, fileMustExist: true, nativeBinding })
    db.pragma('query_only = ON')
    db.pragma('trusted_schema = OFF')
    const statement = db.prepare(job.sql)
    if (!statement.reader) throw Object.assign(new Error('Only statements that return rows can run here (SELECT, WITH, PRAGMA reads); the database is opened read-only.'), { refused: true })
    let program = []
    try { program = db.prepare('EXPLAIN ' + job.sql).all() } catch { /* already an EXPLAIN */ }
    for (const op of program) {
      const p4 = String(op.p4 ?? '')
      if (op.opcode === 'Vacuum' || p4.startsWith('sqlite_attach') || p4.startsWith('sqlite_detach')) {
        throw Object.assign(new Error('This statement would attach, detach or write another database file; refused.'), { refused: true })
      }
    }
    statement.raw(true)
    const columns = statement.columns().map((column) => column.name)
    const rows = []
    let totalRows = 0
    let bytes = 0
    let truncatedAtBytes = null
    // Same budget as the other engines (result-budget.ts): cells cut at maxCellChars, reading stops at maxBytes.
    const cap = (cell) => {
      if (typeof cell === 'bigint') return cell.toString()
      if (Buffer.isBuffer(cell)) return '<' + cell.length + ' bytes>'
      if (typeof cell === 'string' && cell.length > job.maxCellChars) return Buffer.from(cell.slice(0, job.maxCellChars), 'utf16le').toString('utf16le') + '… [' + (cell.length - job.maxCellChars).toLocaleString('en-US') + ' more characters]'
      return cell
    }
    for (const row of statement.iterate()) {
      if (rows.length < job.keepRows) {
        const kept = row.map(cap)
        const size = kept.reduce((sum, cell) => sum + (typeof cell === 'string' ? cell.length * 2 + 16 : 16), 0)
        if (bytes + size > job.maxBytes) {
          truncatedAtBytes = job.maxBytes
          break
        }
        bytes += size
        rows.push(kept)
      }
      totalRows++
    }
    return { id: job.id, ok: true, columns, rows, totalRows, truncatedAtBytes }
  } catch (error) {
    return { id: job.id, ok: false, refused: Boolean(error && error.refused), message: String(error && error.message ? error.message : error) }
  } finally {
    if (db) db.close()
  }
}
process.on('message', (job) => process.send(run(job)))
process.on('disconnect', () => process.exit(0))
`

// Made when the first answer comes back: a command that runs no query never builds it.
const childReplySchema = once(() =>
  z.discriminatedUnion('ok', [
    z.object({
      id: z.number(),
      ok: z.literal(true),
      columns: z.array(z.string()),
      rows: z.array(z.array(z.unknown())),
      totalRows: z.number(),
      truncatedAtBytes: z.nullable(z.number())
    }),
    z.object({ id: z.number(), ok: z.literal(false), refused: z.boolean(), message: z.string() })
  ])
)
type ChildReply = z.infer<ReturnType<typeof childReplySchema>>

/** Where the child finds better-sqlite3, resolved when the first child starts. */
let betterSqlitePath: string | null = null

export interface SqliteHost {
  run: (path: string, request: QueryRequest) => Promise<QueryResult>
  close: () => void
}

/**
 * One child process, reused across queries (starting Node costs hundreds of milliseconds) and replaced
 * after a query had to be killed. Queries run one at a time, in order.
 */
export function createSqliteHost(): SqliteHost {
  let child: ChildProcess | null = null
  let queue: Promise<unknown> = Promise.resolve()
  let nextId = 0

  const spawnChild = (): ChildProcess => {
    // ELECTRON_RUN_AS_NODE makes the Electron binary behave as Node, so the same native build loads.
    // The heap cap: what a query makes the child hold ends the child (a tool error), never the app.
    const started = childProcess().spawn(process.execPath, [`--max-old-space-size=${QUERY_PROCESS_HEAP_MB}`, '-e', CHILD_SOURCE], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: {
        ...process.env,
        ELECTRON_RUN_AS_NODE: '1',
        GLASSBOX_BETTER_SQLITE3: (betterSqlitePath ??= createRequire(import.meta.url).resolve('better-sqlite3')),
        // Under Electron the child is Electron too: it needs the Electron build of the native module.
        GLASSBOX_SQLITE_BINDING: resolveNativeBinding(undefined) ?? ''
      }
    })
    started.on('exit', () => {
      if (child === started) child = null
    })
    return started
  }

  const runOne = (path: string, request: QueryRequest): Promise<QueryResult> =>
    new Promise((resolve, reject) => {
      if (request.signal.aborted) return reject(new QueryCancelledError())
      const worker = child ?? (child = spawnChild())
      const id = ++nextId
      let stderr = ''
      let settled = false
      const onStderr = (chunk: Buffer): void => {
        if (stderr.length < 4_000) stderr += chunk.toString('utf8')
      }
      const onMessage = (message: unknown): void => {
        const reply = childReplySchema().safeParse(message)
        if (!reply.success) return finish(() => reject(new Error('The SQLite query process sent an unreadable reply.')))
        if (reply.data.id === id) finish(() => settleReply(reply.data))
      }
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => finish(() => reject(new Error(exitReason(stderr, code, signal))))
      const kill = (error: Error): void =>
        finish(() => {
          // Forget it now, not at its exit event: the next query must not be sent to a dying process.
          if (child === worker) child = null
          worker.kill('SIGKILL')
          reject(error)
        })
      const onAbort = (): void => kill(new QueryCancelledError())
      const timer = setTimeout(() => kill(new QueryTimeoutError(request.timeoutMs)), request.timeoutMs)
      const settleReply = (reply: ChildReply): void => {
        if (reply.ok) {
          const { columns, rows, totalRows, truncatedAtBytes } = reply
          resolve({ columns, rows: rows.map((row) => row.map(toCell)), totalRows, ...(truncatedAtBytes !== null ? { truncatedAtBytes } : {}) })
        }
        else reject(reply.refused ? new StatementRefusedError(reply.message) : new Error(reply.message))
      }
      function finish(outcome: () => void): void {
        if (settled) return
        settled = true
        clearTimeout(timer)
        request.signal.removeEventListener('abort', onAbort)
        worker.off('message', onMessage)
        worker.off('exit', onExit)
        worker.stderr?.off('data', onStderr)
        outcome()
      }
      request.signal.addEventListener('abort', onAbort, { once: true })
      worker.stderr?.on('data', onStderr)
      worker.on('message', onMessage)
      worker.on('exit', onExit)
      worker.send({
        id,
        path,
        sql: request.sql,
        keepRows: request.keepRows,
        maxBytes: request.maxBytes ?? DEFAULT_MAX_RESULT_BYTES,
        maxCellChars: request.maxCellChars ?? DEFAULT_MAX_CELL_CHARS
      })
    })

  return {
    run: (path, request) => {
      const result = queue.then(() => runOne(path, request))
      queue = result.catch(() => undefined)
      return result
    },
    close: () => {
      child?.kill('SIGKILL')
      child = null
    }
  }
}
