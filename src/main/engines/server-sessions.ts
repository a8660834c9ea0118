import type { TrustedServer } from '../trust/server-trust'
import type { ServerRunner } from './query-protocol'
import { QueryCancelledError, type QueryRequest, type QueryResult } from './query-result'

// What the server engines share: one connection per server, opened on first use and reused, its queries
// run one at a time; a connection that broke (while idle or during a query) is dropped and replaced by the
// next query. Each engine supplies how to open, watch, use and close its own connection.

export interface ServerSession {
  /** Queries on one connection run one at a time. */
  queue: Promise<unknown>
  broken: boolean
}

export interface SessionDriver<S extends ServerSession> {
  open: (server: TrustedServer) => Promise<S>
  /** Calls `broke` when the connection dies while idle (a server restart), so it is never an uncaught 'error'. */
  watch: (session: S, broke: () => void) => void
  query: (server: TrustedServer, session: S, request: QueryRequest) => Promise<QueryResult>
  dispose: (session: S) => void
}

export function createSessionRunner<S extends ServerSession>(driver: SessionDriver<S>): ServerRunner {
  const sessions = new Map<string, Promise<S>>()

  const session = (server: TrustedServer): Promise<S> => {
    const key = serverKey(server)
    const existing = sessions.get(key)
    if (existing) return existing
    const opened = driver.open(server).then((entry) => {
      driver.watch(entry, () => {
        entry.broken = true
        if (sessions.get(key) === opened) sessions.delete(key)
      })
      return entry
    })
    sessions.set(key, opened)
    opened.catch(() => sessions.delete(key))
    return opened
  }

  return {
    run: async (server, request) => {
      if (request.signal.aborted) throw new QueryCancelledError()
      const entry = await session(server)
      const result = entry.queue.then(() => driver.query(server, entry, request))
      entry.queue = result.catch(() => undefined)
      try {
        return await result
      } finally {
        if (entry.broken) {
          sessions.delete(serverKey(server))
          driver.dispose(entry)
        }
      }
    },
    close: () => {
      for (const opened of sessions.values()) void opened.then((entry) => driver.dispose(entry)).catch(() => undefined)
      sessions.clear()
    }
  }
}

function serverKey(server: TrustedServer): string {
  return JSON.stringify([server.host, server.port, server.database, server.user])
}
