import pg from 'pg'
import type { TrustedServer } from '../../trust/server-trust'
import type { ServerRunner } from '../query-protocol'
import { QueryCancelledError, QueryTimeoutError, StatementRefusedError, type QueryRequest, type QueryResult } from '../query-result'
import { createSessionRunner, type ServerSession } from '../server-sessions'
import { cutMarker, DEFAULT_MAX_CELL_CHARS, DEFAULT_MAX_RESULT_BYTES, ResultCollector } from '../result-budget'

// Postgres, read-only by the SERVER: the session starts with default_transaction_read_only=on, every query
// runs inside BEGIN READ ONLY … ROLLBACK with a statement_timeout, and the query itself becomes the body of
// a cursor (DECLARE … CURSOR FOR), which Postgres accepts only for SELECT, VALUES and TABLE, without
// data-modifying WITH clauses. The cursor is declared through the extended protocol, which takes exactly
// one statement, so `SELECT 1; DROP TABLE x` never reaches the parser as two. Rows are fetched in batches
// under the same row and byte budget as DuckDB; the rest are counted with MOVE, without transferring them.
// Stop cancels the running statement on the server (pg_cancel_backend from a second connection).
// This runs in the query process (query-child.ts), with the connection the app approved and resolved.

// A batch is sized by bytes, not by a row count: when long values are cut on the server (below), by the
// bound that gives a row; otherwise the first FETCH takes one row and later ones as many as fit in
// BATCH_BYTES by the rows seen so far, so rows of 20 MB arrive one at a time, not 200 (4 GB) at once.
const BATCH_BYTES = 8 * 1024 * 1024
const MAX_BATCH_ROWS = 1_000
const CURSOR = 'glassbox_cursor'
const CUT_CURSOR = 'glassbox_cut_cursor'
const CONNECT_TIMEOUT_MS = 10_000

// Numbers and booleans are parsed; everything else stays as the server's text (dates keep their own
// form and time zone instead of becoming JavaScript Dates in the local one; int8 and numeric stay exact).
const PARSED_TYPES = new Set([16, 21, 23, 26, 700, 701])
const typeParsers = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    PARSED_TYPES.has(oid) ? pg.types.getTypeParser(oid, format) : (value: string) => value
}

interface Session extends ServerSession {
  client: pg.Client
  /** The server process of this connection, for pg_cancel_backend. */
  pid: number
}

/** One connection per server, opened on first use and reused; a broken one is replaced on the next query. */
export function createPostgresRunner(): ServerRunner {
  return createSessionRunner<Session>({
    open: async (server) => {
      const client = await connect(server)
      const pid = Number((await client.query({ text: 'SELECT pg_backend_pid()', rowMode: 'array' })).rows[0]?.[0])
      return { client, pid, queue: Promise.resolve(), broken: false }
    },
    watch: (entry, broke) => entry.client.on('error', broke),
    query: runQuery,
    dispose: (entry) => void entry.client.end().catch(() => undefined)
  })
}

async function connect(trusted: TrustedServer): Promise<pg.Client> {
  const client = new pg.Client({
    host: trusted.host,
    port: trusted.port,
    database: trusted.database,
    user: trusted.user,
    password: trusted.password,
    application_name: 'glassbox',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Read-only from the first statement of the session, whatever a later statement tries.
    options: '-c default_transaction_read_only=on',
    types: typeParsers
  })
  client.on('error', () => undefined)
  try {
    await client.connect()
  } catch (error) {
    void client.end().catch(() => undefined)
    throw new Error(`Cannot connect to Postgres at ${trusted.host}:${trusted.port} (database ${trusted.database}, user ${trusted.user}): ${messageOf(error)}`)
  }
  return client
}

async function runQuery(server: TrustedServer, entry: Session, request: QueryRequest): Promise<QueryResult> {
  const { client } = entry
  let stopped: 'timeout' | 'cancel' | null = null
  const stop = (why: 'timeout' | 'cancel'): void => {
    if (stopped) return
    stopped = why
    void cancelBackend(server, entry.pid).catch(() => {
      // Could not reach the server to cancel: drop the connection, which ends the statement too.
      entry.broken = true
      void client.end().catch(() => undefined)
    })
  }
  const onAbort = (): void => stop('cancel')
  request.signal.addEventListener('abort', onAbort, { once: true })
  // The server's statement_timeout stops the statement; this timer (a little later) covers a server that
  // does not answer at all.
  const timer = setTimeout(() => stop('timeout'), request.timeoutMs + 2_000)
  const body = request.sql.trim().replace(/;\s*$/, '')
  try {
    // Our own two statements, one round trip (the simple protocol takes several).
    await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.round(request.timeoutMs))}`)
    // queryMode is pg's switch to the extended protocol (one statement per message); its typings lag behind.
    const declare: pg.QueryConfig & { queryMode: 'extended' } = { text: `DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${body}`, queryMode: 'extended' }
    try {
      await client.query(declare)
    } catch (error) {
      throw explainDeclareError(error, `DECLARE ${CURSOR} NO SCROLL CURSOR FOR `.length)
    }
    const maxCellChars = request.maxCellChars ?? DEFAULT_MAX_CELL_CHARS
    const collector = new ResultCollector({ keepRows: request.keepRows, maxBytes: request.maxBytes ?? DEFAULT_MAX_RESULT_BYTES, maxCellChars })
    const shape = await client.query({ text: `FETCH 0 FROM ${CURSOR}`, rowMode: 'array' })
    const columns = deduplicate(shape.fields.map((field) => field.name))
    const textColumns = shape.fields.map((field) => !PARSED_TYPES.has(field.dataTypeID))
    const cut = textColumns.some(Boolean) ? await declareCutCursor(client, body, textColumns, maxCellChars) : null
    const cursor = cut ? CUT_CURSOR : CURSOR
    // Rows of numbers, or with every text cut on the server, have a known bound: the first batch can be full.
    const rowBound = cut || !textColumns.some(Boolean) ? textColumns.reduce((sum, isText) => sum + (isText ? maxCellChars * 4 + 64 : 64), 0) : null
    let batchRows = rowBound === null ? 1 : Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(BATCH_BYTES / rowBound), Math.max(1, request.keepRows)))
    let rowsRead = 0
    let bytesRead = 0
    while (collector.wantsRows) {
      const batch = await client.query<unknown[]>({ text: `FETCH ${batchRows} FROM ${cursor}`, rowMode: 'array' })
      for (const fetched of batch.rows) {
        bytesRead += rowBytes(fetched)
        if (cut) collector.add(...assembleCutRow(fetched, cut, maxCellChars))
        else collector.add(fetched)
      }
      rowsRead += batch.rows.length
      if (batch.rows.length < batchRows) break
      const fitting = Math.floor(BATCH_BYTES / Math.max(1, bytesRead / rowsRead))
      batchRows = Math.max(1, Math.min(MAX_BATCH_ROWS, fitting, Math.max(1, request.keepRows - collector.rows.length)))
    }
    if (collector.open && collector.rows.length >= request.keepRows) {
      const moved = await client.query(`MOVE FORWARD ALL IN ${cursor}`)
      collector.count(moved.rowCount ?? 0)
    }
    return collector.result(columns)
  } catch (error) {
    if (stopped === 'timeout' || codeOf(error) === '57014' && /statement timeout/.test(messageOf(error))) throw new QueryTimeoutError(request.timeoutMs)
    if (stopped === 'cancel') throw new QueryCancelledError()
    if (error instanceof StatementRefusedError) throw error
    throw new Error(`Postgres: ${messageOf(error)}`)
  } finally {
    clearTimeout(timer)
    request.signal.removeEventListener('abort', onAbort)
    // Not awaited: pg sends a connection's queries in the order they are made, so the next query follows the
    // ROLLBACK anyway, and the answer need not wait for it.
    if (!entry.broken) void client.query('ROLLBACK').catch(() => void (entry.broken = true))
  }
}

/** Per column of the query: whether the cut cursor sends it as (value, cut text, length) instead of as itself. */
type CutPlan = boolean[]

/**
 * Long values are cut on the server, where the driver would otherwise have to build them whole (a 600 MB text
 * is more than a JavaScript string can hold; 250 rows of 20 MB are 5 GB on the wire). Every column the
 * driver gets as text is sent as three: the value itself when it is short, else only its first characters
 * and its length. The query stays the cursor's body as it was checked above, now as a subquery whose
 * columns are renamed by position (duplicate names stay legal); if the server will not take that, the
 * query's own cursor is read instead, and the cells are cut here.
 */
async function declareCutCursor(client: pg.Client, body: string, plan: CutPlan, maxChars: number): Promise<CutPlan | null> {
  const names = plan.map((_isText, index) => `c${index + 1}`)
  const select = names.flatMap((name, index) => {
    if (!plan[index]) return [`q.${name}`]
    const long = `length(q.${name}::text) > ${maxChars}`
    return [`CASE WHEN ${long} THEN NULL ELSE q.${name} END`, `CASE WHEN ${long} THEN left(q.${name}::text, ${maxChars}) END`, `CASE WHEN ${long} THEN length(q.${name}::text) END`]
  })
  // The newlines: a query ending in a -- comment must not comment out the closing parenthesis.
  const text = `DECLARE ${CUT_CURSOR} NO SCROLL CURSOR FOR SELECT ${select.join(', ')} FROM (\n${body}\n) AS q(${names.join(', ')})`
  await client.query('SAVEPOINT glassbox_cut')
  try {
    const declare: pg.QueryConfig & { queryMode: 'extended' } = { text, queryMode: 'extended' }
    await client.query(declare)
    return plan
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT glassbox_cut')
    return null
  }
}

/** A row of the cut cursor as the query's own columns, and which of them are already cut. */
function assembleCutRow(fetched: readonly unknown[], plan: CutPlan, maxChars: number): [unknown[], Set<number>] {
  const row: unknown[] = []
  const cutColumns = new Set<number>()
  let at = 0
  plan.forEach((isCut, column) => {
    if (!isCut) return void row.push(fetched[at++])
    const [value, kept, length] = [fetched[at], fetched[at + 1], fetched[at + 2]]
    at += 3
    if (typeof kept !== 'string') return void row.push(value)
    cutColumns.add(column)
    row.push(cutMarker(kept, Number(length) - maxChars))
  })
  return [row, cutColumns]
}

/** Roughly what a row costs as the driver holds it (text as sent), to size the next FETCH. */
function rowBytes(row: readonly unknown[]): number {
  return row.reduce<number>((sum, cell) => sum + (typeof cell === 'string' ? cell.length : 8), 0)
}

async function cancelBackend(server: TrustedServer, pid: number | undefined): Promise<void> {
  if (!pid) throw new Error('no backend pid')
  const canceller = await connect(server)
  try {
    await canceller.query('SELECT pg_cancel_backend($1)', [pid])
  } finally {
    await canceller.end().catch(() => undefined)
  }
}

/** A syntax error at the very start of the query means it is not a SELECT/VALUES/TABLE: say so plainly. */
function explainDeclareError(error: unknown, prefixLength: number): Error {
  const position = positionOf(error)
  if (codeOf(error) === '42601' && position !== null && position <= prefixLength + 1) {
    return new StatementRefusedError(`Only read queries run on Postgres (SELECT, WITH … SELECT, VALUES, TABLE); the server runs every query in a read-only transaction. (${messageOf(error)})`)
  }
  if (codeOf(error) === '0A000' && /data-modifying/i.test(messageOf(error))) {
    return new StatementRefusedError(`Only read queries run on Postgres: a WITH clause may not modify data. (${messageOf(error)})`)
  }
  return error instanceof Error ? error : new Error(String(error))
}

function deduplicate(names: string[]): string[] {
  const seen = new Map<string, number>()
  return names.map((name) => {
    const count = seen.get(name) ?? 0
    seen.set(name, count + 1)
    return count === 0 ? name : `${name}_${count}`
  })
}

function codeOf(error: unknown): string | null {
  return error instanceof pg.DatabaseError ? (error.code ?? null) : null
}

function positionOf(error: unknown): number | null {
  return error instanceof pg.DatabaseError && error.position ? Number(error.position) : null
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
