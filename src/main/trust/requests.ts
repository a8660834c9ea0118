import { hash } from 'node:crypto'
import { commandLine, type ProcessTrustRequest, type RemoteToolsTrustRequest, type TrustRequest } from '../../shared/trust'

// What a project asks to do that reaches beyond its folder: connect to a server it names (and send it the
// user's environment variables), or start a process. Each request is shown to the user exactly as below and
// approved by its fingerprint, so any change to what was shown (host, port, user, variables, command line)
// is a new request that asks again.

export { commandLine } from '../../shared/trust'
export type { ProcessTrustRequest, RemoteToolsTrustRequest, ServerTrustRequest, TrustRequest } from '../../shared/trust'

/** Whether `request` is an MCP server's (a process to start, or remote tools to connect to), not a database server's. */
export function isMcpServerRequest(request: TrustRequest): request is ProcessTrustRequest | RemoteToolsTrustRequest {
  return request.kind !== 'server'
}

/** Stable over label changes and key order; changes with anything the user is shown and approves. */
export function fingerprintOf(request: TrustRequest): string {
  const shown =
    request.kind === 'server'
      ? [request.kind, request.engine, request.host, request.port, request.database, request.user, [...request.variables].sort()]
      : request.kind === 'process'
        ? [request.kind, request.command, request.args, [...request.env].sort(), [...request.variables].sort()]
        : [request.kind, request.url, [...request.variables].sort()]
  return hash('sha256', JSON.stringify(shown), 'hex').slice(0, 32)
}

/** One sentence naming exactly what would happen: "connect to db.internal:5432 (database analytics) as analyst with $PG_PASSWORD". */
export function describeRequest(request: TrustRequest): string {
  const secrets = request.variables.length > 0 ? ` with ${request.variables.map((name) => `$${name}`).join(', ')}` : ''
  if (request.kind === 'server') {
    return `connect to ${request.host}:${request.port} (${request.engine} database ${request.database}) as ${request.user}${secrets}`
  }
  if (request.kind === 'process') {
    const env = request.env.length > 0 ? ` (environment: ${request.env.join(' ')})` : ''
    return `start the process \`${commandLine(request.command, request.args)}\`${env}${secrets}`
  }
  return `connect to the MCP server at ${request.url}${secrets}`
}

/** The line a refused action reports, telling where to approve it. */
export function approvalNeededMessage(request: TrustRequest): string {
  return (
    `This project asks to ${describeRequest(request)}. Nothing was sent or started until you approve it: ` +
    `in the app, in the dialog it opens (or Settings → Project trust); on the command line, with --trust-project.`
  )
}
