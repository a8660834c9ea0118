import { QueryCancelledError, QueryTimeoutError, StatementRefusedError } from './query-result'
import { childRequestSchema, FATAL_MARKER, type ChildReply, type ChildRequest, type ServerRunner } from './query-protocol'

// The query process: server engines' drivers run here, started by query-process.ts with a capped heap, so
// whatever a query makes a driver do (build a string longer than JavaScript allows, buffer gigabytes) ends
// this process, not the app. It reads neither the environment nor the project: every job carries the
// connection the user approved, resolved by the app.

const runnerLoaders: Record<string, () => Promise<ServerRunner>> = {
  postgres: async () => (await import('./postgres/runner')).createPostgresRunner(),
  mysql: async () => (await import('./mysql/runner')).createMysqlRunner()
}

const runners = new Map<string, Promise<ServerRunner>>()
const running = new Map<number, AbortController>()

function runnerFor(engine: string): Promise<ServerRunner> {
  const load = runnerLoaders[engine]
  if (!load) return Promise.reject(new Error(`No query runner for the engine ${engine}.`))
  let runner = runners.get(engine)
  if (!runner) runners.set(engine, (runner = load()))
  return runner
}

async function runJob(job: Extract<ChildRequest, { type: 'run' }>): Promise<void> {
  const controller = new AbortController()
  running.set(job.id, controller)
  let reply: ChildReply
  try {
    const runner = await runnerFor(job.engine)
    const result = await runner.run(job.server, { sql: job.sql, keepRows: job.keepRows, maxBytes: job.maxBytes, maxCellChars: job.maxCellChars, timeoutMs: job.timeoutMs, signal: controller.signal })
    reply = { id: job.id, ok: true, columns: result.columns, rows: result.rows, totalRows: result.totalRows, truncatedAtBytes: result.truncatedAtBytes ?? null }
  } catch (error) {
    const kind = error instanceof QueryTimeoutError ? 'timeout' : error instanceof QueryCancelledError ? 'cancelled' : error instanceof StatementRefusedError ? 'refused' : 'error'
    reply = { id: job.id, ok: false, kind, message: error instanceof Error ? error.message : String(error) }
  } finally {
    running.delete(job.id)
  }
  process.send?.(reply)
}

process.on('message', (message: unknown) => {
  const parsed = childRequestSchema().safeParse(message)
  if (!parsed.success) return
  if (parsed.data.type === 'cancel') running.get(parsed.data.id)?.abort()
  else void runJob(parsed.data)
})

// A driver that throws inside its socket handler: say why on stderr (the app reads it) and end.
process.on('uncaughtException', (error) => {
  process.stderr.write(`${FATAL_MARKER}${error instanceof Error ? error.message : String(error)}\n`, () => process.exit(70))
})

// The app went away (or closed the pool): nothing is left to answer.
process.on('disconnect', () => {
  for (const runner of runners.values()) void runner.then((opened) => opened.close()).catch(() => undefined)
  process.exit(0)
})
