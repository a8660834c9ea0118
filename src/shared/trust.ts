import * as z from './zod-mini'
import { once } from './once'

// What a project asks to do beyond its folder, as every process sees it: the main process decides and
// stores approvals, the renderer shows the requests in the trust dialog and in settings.

// Made when a stored approval is first read (most starts read none).
export const trustRequestSchema = once(() => {
  const names = z.array(z.string().check(z.maxLength(200))).check(z.maxLength(200))
  return z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('server'),
      /** The database entry's name (a label: not part of the fingerprint). */
      name: z.string(),
      engine: z.string(),
      host: z.string(),
      port: z.number(),
      database: z.string(),
      /** As written; an environment variable shows as `$NAME`. */
      user: z.string(),
      /** Environment variables whose values would be sent (user, password), sorted. */
      variables: names
    }),
    z.object({
      kind: z.literal('process'),
      /** The MCP server's name in mcp.json (a label: not part of the fingerprint). */
      name: z.string(),
      command: z.string(),
      args: z.array(z.string()),
      /** `NAME=value` as mcp.json writes it, `${VAR}` unexpanded, sorted by name. */
      env: z.array(z.string()),
      /** The user's environment variables read into it (`${VAR}`), sorted. */
      variables: names
    }),
    z.object({
      kind: z.literal('remote-tools'),
      name: z.string(),
      url: z.string(),
      variables: names
    })
  ])
})

export type TrustRequest = z.infer<ReturnType<typeof trustRequestSchema>>

/** A command line as a shell would need it typed: an argument with spaces or quotes is quoted. */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`)).join(' ')
}

export type ServerTrustRequest = Extract<TrustRequest, { kind: 'server' }>
export type ProcessTrustRequest = Extract<TrustRequest, { kind: 'process' }>
export type RemoteToolsTrustRequest = Extract<TrustRequest, { kind: 'remote-tools' }>

/** One thing the project asks (or once asked), as settings and the dialog list it. */
export interface TrustEntryView {
  fingerprint: string
  request: TrustRequest
  /** "connect to db.internal:5432 (postgres database analytics) as analyst with $PG_PASSWORD" */
  description: string
  approved: boolean
  approvedAt: string | null
  /** False for an approval the project no longer asks for (its config changed); still revocable. */
  askedNow: boolean
}

export interface McpToolView {
  /** As the model calls it: `<server>__<tool>`. */
  name: string
  server: string
  tool: string
  description: string
  /** JSON schema of the input, as sent to the model. */
  inputSchema: Record<string, unknown>
  /** Tokens its schema adds to every request. */
  tokens: number
}

export type McpServerState = 'not-approved' | 'starting' | 'ready' | 'failed' | 'stopped'

export interface McpServerView {
  name: string
  state: McpServerState
  /** The command line (or URL) exactly as approved or to approve. */
  commandLine: string
  fingerprint: string
  tools: McpToolView[]
  /** Why it failed, for a person (with the fix when known). */
  error: string | null
  /** The last lines the process wrote to stderr. */
  stderrTail: string | null
}

export interface McpStatus {
  /** mcp.json as nao_config.yaml names it, project-relative; null when the project declares none. */
  configFile: string | null
  servers: McpServerView[]
  /** Problems reading the config (bad JSON, a server without a command). */
  problems: string[]
}
