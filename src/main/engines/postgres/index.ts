import type { Engine } from '../engine'
import { readServerConnection } from '../server-config'
import { PostgresRules } from './dialect'
import type { PostgresHost } from './runner'

// Postgres servers (and Postgres-compatible ones such as Citus), through `pg`.

export const postgresEngine: Engine = {
  id: 'postgres',
  label: 'Postgres',
  configTypes: ['postgres', 'postgresql'],
  folderTypes: ['postgres', 'postgresql'],
  readOnly:
    'the session starts with default_transaction_read_only, each query runs in BEGIN READ ONLY … ROLLBACK as the body of a cursor (SELECT, VALUES, TABLE only), with statement_timeout; Stop is pg_cancel_backend',
  dialect: { types: ['postgres', 'postgresql'], Rules: PostgresRules },
  resolveConnection: (entry, problem) => readServerConnection(entry, { label: 'postgres', port: 5432 }, problem),
  createHost: () => {
    // The driver loads with the first query, not with every project that merely lists a server.
    let host: Promise<PostgresHost> | null = null
    return {
      run: async (database, request) => {
        if (!database.server) throw new Error(`${database.id} has no server connection`)
        host ??= import('./runner').then((runner) => runner.createPostgresHost())
        return (await host).run(database.server, request)
      },
      close: () => void host?.then((opened) => opened.close())
    }
  },
  catalog: { kind: 'server', open: async (server, signal) => (await import('./catalog')).openPostgresSource(server, signal) }
}
