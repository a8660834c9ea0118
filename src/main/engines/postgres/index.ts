import type { Engine } from '../engine'
import { createServerQueryHost } from '../query-process'
import { readServerConnection } from '../server-config'
import { PostgresRules } from './dialect'

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
    // Out of the app's process, started with the first query (query-process.ts).
    const host = createServerQueryHost('postgres')
    return {
      run: (database, request) => {
        if (!database.server) return Promise.reject(new Error(`${database.id} has no server connection`))
        return host.run(database.server, request)
      },
      close: () => host.close()
    }
  },
  catalog: { kind: 'server', open: async (server, signal) => (await import('./catalog')).openPostgresSource(server, signal) }
}
