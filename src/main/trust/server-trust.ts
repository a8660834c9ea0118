import { envVariablesIn, resolveEnvReferences, showEnvReferences } from '../engines/server-config'
import type { ServerConnection } from '../engines/server-config'
import { requireTrust } from './gate'
import type { ServerTrustRequest } from './requests'

// A database server the project names: what connecting to it asks of the user, and the connection
// parameters once that is approved (only then are the user's environment variables read).

export function serverTrustRequest(server: ServerConnection, engine: string, name = server.database): ServerTrustRequest {
  const variables = [...new Set([...envVariablesIn(server.user), ...envVariablesIn(server.password.reveal())])].sort()
  return { kind: 'server', name, engine, host: server.host, port: server.port, database: server.database, user: showEnvReferences(server.user), variables }
}

export interface TrustedServer {
  host: string
  port: number
  database: string
  user: string
  /** The real password: give it to the driver and nothing else. */
  password: string
}

/** The gate in front of every connection to a project's server: refuses (TrustRequiredError) until approved. */
export async function resolveTrustedServer(server: ServerConnection, engine: string): Promise<TrustedServer> {
  await requireTrust(serverTrustRequest(server, engine))
  return {
    host: server.host,
    port: server.port,
    database: server.database,
    user: resolveEnvReferences(server.user),
    password: resolveEnvReferences(server.password.reveal())
  }
}
