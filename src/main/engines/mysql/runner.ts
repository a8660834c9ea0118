import mysql from 'mysql2'
import type { TrustedServer } from '../../trust/server-trust'
import type { ServerRunner } from '../query-protocol'
import { createSessionRunner, type ServerSession } from '../server-sessions'
import { QueryCancelledError, QueryTimeoutError, StatementRefusedError, type QueryRequest, type QueryResult } from '../query-result'
import { DEFAULT_MAX_CELL_CHARS, DEFAULT_MAX_RESULT_BYTES, ResultCollector } from '../result-budget'
import { refusedConstruct } from './statement-check'

// MySQL and MariaDB, read-only by the SERVER: the session is `SET SESSION TRANSACTION READ ONLY`, every
// query runs in START TRANSACTION READ ONLY … ROLLBACK, and before it runs the server parses it under
// EXPLAIN, which takes only SELECT-like statements (a SET, LOAD DATA, SHOW, CALL or DDL is a syntax error
// there, and an explained INSERT/UPDATE/DELETE is refused by the read-only transaction). What a read-only
// transaction still allows — SELECT … INTO OUTFILE, locks, reading server files — is refused by name (see
// statement-check.ts). Multiple statements are off in the protocol. The server's own statement time limit
// applies (max_statement_time on MariaDB, max_execution_time on MySQL), and Stop is KILL QUERY from a
// second connection. Rows stream under the same row and byte budget as every other engine.
// This runs in the query process (query-child.ts), with the connection the app approved and resolved.

const CONNECT_TIMEOUT_MS = 10_000

interface Session extends ServerSession {
  connection: mysql.Connection
  threadId: number
  mariadb: boolean
}

/** One connection per server, opened on first use and reused; a broken one is replaced on the next query. */
export function createMysqlRunner(): ServerRunner {
  return createSessionRunner<Session>({
    open: openSession,
    watch: (entry, broke) => entry.connection.on('error', broke),
    query: runQuery,
    dispose: (entry) => entry.connection.destroy()
  })
}

async function connect(trusted: TrustedServer): Promise<mysql.Connection> {
  const connection = mysql.createConnection({
    host: trusted.host,
    port: trusted.port,
    database: trusted.database,
    user: trusted.user,
    password: trusted.password,
    connectTimeout: CONNECT_TIMEOUT_MS,
    multipleStatements: false,
    // Dates, big integers and decimals stay the server's text: exact, and in the server's own form.
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false
  })
  connection.on('error', () => undefined)
  return new Promise((resolve, reject) => {
    connection.connect((error) => {
      if (!error) return resolve(connection)
      connection.destroy()
      reject(new Error(`Cannot connect to MySQL at ${trusted.host}:${trusted.port} (database ${trusted.database}, user ${trusted.user}): ${error.message}`))
    })
  })
}

async function openSession(server: TrustedServer): Promise<Session> {
  const connection = await connect(server)
  try {
    // Read-only from the first statement of the session, whatever a later statement tries.
    await simple(connection, 'SET SESSION TRANSACTION READ ONLY')
    const [row] = await simple(connection, 'SELECT VERSION(), CONNECTION_ID()')
    return { connection, threadId: Number(row?.[1]), mariadb: /mariadb/i.test(String(row?.[0] ?? '')), queue: Promise.resolve(), broken: false }
  } catch (error) {
    connection.destroy()
    throw error
  }
}

/** A statement of our own, rows as arrays. */
function simple(connection: mysql.Connection, sql: string): Promise<unknown[][]> {
  return new Promise((resolve, reject) => {
    connection.query({ sql, rowsAsArray: true }, (error, rows) => {
      if (error) reject(error)
      else resolve(Array.isArray(rows) ? rows.filter(Array.isArray) : [])
    })
  })
}

async function runQuery(server: TrustedServer, entry: Session, request: QueryRequest): Promise<QueryResult> {
  const { connection } = entry
  let stopped: 'timeout' | 'cancel' | null = null
  const stop = (why: 'timeout' | 'cancel'): void => {
    if (stopped) return
    stopped = why
    void killQuery(server, entry.threadId).catch(() => {
      // Could not reach the server to stop it: drop the connection, which ends the statement too.
      entry.broken = true
      connection.destroy()
    })
  }
  const onAbort = (): void => stop('cancel')
  request.signal.addEventListener('abort', onAbort, { once: true })
  // The server's own limit stops the statement; this timer (a little later) covers a server that does not answer.
  const timer = setTimeout(() => stop('timeout'), request.timeoutMs + 2_000)
  const body = request.sql.trim().replace(/;\s*$/, '')
  let inTransaction = false
  try {
    const refused = refusedConstruct(body)
    if (refused) throw new StatementRefusedError(refused)
    const limit = entry.mariadb
      ? `SET SESSION max_statement_time = ${Math.max(0.001, request.timeoutMs / 1000)}`
      : `SET SESSION max_execution_time = ${Math.max(1, Math.round(request.timeoutMs))}`
    await simple(connection, limit)
    await simple(connection, 'START TRANSACTION READ ONLY')
    inTransaction = true
    await explain(connection, body)
    return await streamRows(entry, body, request)
  } catch (error) {
    if (stopped === 'timeout' || isStatementTimeout(error)) throw new QueryTimeoutError(request.timeoutMs)
    if (stopped === 'cancel') throw new QueryCancelledError()
    if (error instanceof StatementRefusedError) throw error
    throw new Error(`MySQL: ${messageOf(error)}`)
  } finally {
    clearTimeout(timer)
    request.signal.removeEventListener('abort', onAbort)
    // Not awaited: mysql2 sends a connection's statements in order, so the next query follows the ROLLBACK.
    if (inTransaction && !entry.broken) void simple(connection, 'ROLLBACK').catch(() => void (entry.broken = true))
  }
}

/**
 * The server parses the query as EXPLAIN takes it: SELECT-like statements only. FORMAT=JSON, because a bare
 * `EXPLAIN name …` is DESCRIBE of a table (`EXPLAIN TRUNCATE sales` would describe a table named TRUNCATE).
 */
async function explain(connection: mysql.Connection, body: string): Promise<void> {
  try {
    await simple(connection, `EXPLAIN FORMAT=JSON ${body}`)
  } catch (error) {
    const code = codeOf(error)
    if (code === 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION') {
      throw new StatementRefusedError(`Only read queries run on MySQL; the server runs every query in a read-only transaction. (${messageOf(error)})`)
    }
    const where = code === 'ER_PARSE_ERROR' ? parseErrorPlace(messageOf(error), body) : 'inside'
    // A syntax error right at the start: not a statement EXPLAIN takes (SET, SHOW, LOAD DATA, CALL, …).
    if (where === 'start') throw new StatementRefusedError(`Only read queries run on MySQL (SELECT, WITH … SELECT, VALUES); this statement is not one.`)
    if (where === 'second-statement') throw new StatementRefusedError('Only one statement runs per query on MySQL; send the others separately.')
    throw error
  }
}

/**
 * MySQL's parse errors say "near '<rest of the statement>'": the whole statement when it failed at its
 * first word, or what follows a `;` when a second statement was sent.
 */
function parseErrorPlace(message: string, body: string): 'start' | 'second-statement' | 'inside' {
  const near = /near '([\s\S]*)' at line \d+/.exec(message)
  if (!near) return 'inside'
  const rest = near[1].slice(0, 80)
  if (rest === '' || body.startsWith(rest)) return 'start'
  const at = body.lastIndexOf(rest)
  return at > 0 && body.slice(0, at).trimEnd().endsWith(';') ? 'second-statement' : 'inside'
}

function streamRows(entry: Session, body: string, request: QueryRequest): Promise<QueryResult> {
  const collector = new ResultCollector({
    keepRows: request.keepRows,
    maxBytes: request.maxBytes ?? DEFAULT_MAX_RESULT_BYTES,
    maxCellChars: request.maxCellChars ?? DEFAULT_MAX_CELL_CHARS
  })
  return new Promise((resolve, reject) => {
    let columns: string[] = []
    let done = false
    const query = entry.connection.query({ sql: body, rowsAsArray: true })
    query.on('fields', (fields: Array<{ name: string }> | undefined) => {
      columns = deduplicate((fields ?? []).map((field) => field.name))
    })
    query.on('result', (row: unknown) => {
      if (done) return
      collector.add(Array.isArray(row) ? row : [])
      if (!collector.open) {
        // The byte budget is spent: stop reading now. The rest of the result is still on the wire, so this
        // connection is dropped (the server ends the statement) and the next query opens a new one.
        done = true
        entry.broken = true
        entry.connection.destroy()
        resolve(collector.result(columns))
      }
    })
    query.on('error', (error: Error) => {
      if (done) return
      done = true
      reject(error)
    })
    query.on('end', () => {
      if (done) return
      done = true
      resolve(collector.result(columns))
    })
  })
}

async function killQuery(server: TrustedServer, threadId: number): Promise<void> {
  if (!Number.isInteger(threadId) || threadId <= 0) throw new Error('no thread id')
  const killer = await connect(server)
  try {
    await simple(killer, `KILL QUERY ${threadId}`)
  } finally {
    killer.destroy()
  }
}

function isStatementTimeout(error: unknown): boolean {
  // MariaDB: 1969 ER_STATEMENT_TIMEOUT; MySQL: 3024 ER_QUERY_TIMEOUT.
  const errno = error !== null && typeof error === 'object' && 'errno' in error ? error.errno : null
  return errno === 1969 || errno === 3024
}

function codeOf(error: unknown): string | null {
  return error !== null && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : null
}

function deduplicate(names: string[]): string[] {
  const seen = new Map<string, number>()
  return names.map((name) => {
    const count = seen.get(name) ?? 0
    seen.set(name, count + 1)
    return count === 0 ? name : `${name}_${count}`
  })
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
