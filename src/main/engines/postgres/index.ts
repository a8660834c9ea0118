import type { Engine } from '../engine'
import { readServerConnection } from '../server-config'
import { openPostgresSource } from './catalog'
import { PostgresRules } from './dialect'
import { createPostgresHost } from './runner'

// Postgres servers (and Postgres-compatible ones such as Citus), through `pg`.

export const postgresEngine: Engine = {
  id: 'postgres',
  label: 'Postgres',
  configTypes: ['postgres', 'postgresql'],
  folderTypes: ['postgres', 'postgresql'],
  readOnly:
    'the session starts with default_transaction_read_only, each query runs in BEGIN READ ONLY … ROLLBACK as the body of a cursor (SELECT, VALUES, TABLE only), with statement_timeout; Stop is pg_cancel_backend',
  dialect: { types: ['postgres', 'postgresql'], Rules: PostgresRules },
  resolveConnection: (entry, problem, env) => readServerConnection(entry, { label: 'postgres', port: 5432 }, problem, env),
  createHost: () => {
    const host = createPostgresHost()
    return {
      run: (database, request) => {
        if (!database.server) throw new Error(`${database.id} has no server connection`)
        return host.run(database.server, request)
      },
      close: () => host.close()
    }
  },
  catalog: { kind: 'server', open: openPostgresSource }
}
