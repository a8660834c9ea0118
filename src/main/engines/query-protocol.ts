import * as z from '../../shared/zod-mini'
import { once } from '../../shared/once'
import type { TrustedServer } from '../trust/server-trust'
import type { QueryRequest, QueryResult } from './query-result'

// The messages between the app and its query process (query-child.ts): a job to run with the connection the
// user approved, a Stop, and the answers. Both sides check what they receive: the other side is another
// process, and one that may just have run out of memory.

/** What a query process runs a server query with: already approved and resolved in the app. */
export interface ServerRunner {
  run: (server: TrustedServer, request: QueryRequest) => Promise<QueryResult>
  close: () => void
}

// Made when a query first runs: a command that runs none (`glassbox prompt`) builds none of them.
const integer = () => z.number().check(z.int())
const positiveInteger = () => z.number().check(z.int(), z.positive())

export const childRequestSchema = once(() =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('run'),
      id: integer(),
      engine: z.string(),
      server: z.object({ host: z.string(), port: integer(), database: z.string(), user: z.string(), password: z.string() }),
      sql: z.string(),
      keepRows: z.number().check(z.int(), z.nonnegative()),
      maxBytes: positiveInteger(),
      maxCellChars: positiveInteger(),
      timeoutMs: z.number().check(z.positive())
    }),
    z.object({ type: z.literal('cancel'), id: integer() })
  ])
)
export type ChildRequest = z.infer<ReturnType<typeof childRequestSchema>>

/** How a query failed in the child: the app turns each kind back into the error the engines throw in-process. */
export const failureKinds = ['timeout', 'cancelled', 'refused', 'error'] as const

export const childReplySchema = once(() => {
  const cell = z.union([z.string(), z.number(), z.boolean(), z.null()])
  return z.discriminatedUnion('ok', [
    z.object({
      id: integer(),
      ok: z.literal(true),
      columns: z.array(z.string()),
      rows: z.array(z.array(cell)),
      totalRows: z.number().check(z.int(), z.nonnegative()),
      truncatedAtBytes: z.nullable(z.number())
    }),
    z.object({ id: integer(), ok: z.literal(false), kind: z.enum(failureKinds), message: z.string() })
  ])
})
export type ChildReply = z.infer<ReturnType<typeof childReplySchema>>

/** A query process's JavaScript heap, in MB: past it V8 ends the process ("out of memory at 1.5 GB"). */
export const QUERY_PROCESS_HEAP_MB = 1536

/** Written to stderr by a query process about to exit on an error nothing caught (the driver's own). */
export const FATAL_MARKER = 'glassbox query process fatal: '

/** Why the child ended, as the query's error says it. */
export function exitReason(stderr: string, code: number | null, signal: NodeJS.Signals | null): string {
  if (/heap out of memory|Reached heap limit|Allocation failed/i.test(stderr)) {
    return `The query engine stopped: out of memory at ${QUERY_PROCESS_HEAP_MB / 1024} GB. Ask for fewer or smaller values (columns, LIMIT, aggregates, left(column, n)); the next query starts it again.`
  }
  const fatal = stderr.split('\n').find((line) => line.startsWith(FATAL_MARKER))
  const detail = fatal ? fatal.slice(FATAL_MARKER.length).trim() : signal ? `killed by ${signal}` : `exit code ${code}`
  return `The query engine stopped unexpectedly: ${detail}. The next query starts it again.`
}
