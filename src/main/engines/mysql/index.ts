import type { Engine } from '../engine'
import { createServerQueryHost } from '../query-process'
import { readServerConnection } from '../server-config'
import { MySqlRules } from './dialect'

// MySQL and MariaDB servers, through `mysql2`.

export const mysqlEngine: Engine = {
  id: 'mysql',
  label: 'MySQL / MariaDB',
  configTypes: ['mysql', 'mariadb'],
  folderTypes: ['mysql', 'mariadb'],
  readOnly:
    'the session is SET SESSION TRANSACTION READ ONLY, each query runs in START TRANSACTION READ ONLY … ROLLBACK after the server parsed it under EXPLAIN (SELECT-like only), INTO OUTFILE/DUMPFILE, named locks and LOAD_FILE are refused, max_statement_time (MariaDB) or max_execution_time (MySQL) limits it; Stop is KILL QUERY',
  dialect: { types: ['mysql', 'mariadb'], Rules: MySqlRules },
  resolveConnection: (entry, problem) => readServerConnection(entry, { label: 'mysql', port: 3306 }, problem),
  createHost: () => {
    // Out of the app's process, started with the first query (query-process.ts).
    const host = createServerQueryHost('mysql')
    return {
      run: (database, request) => {
        if (!database.server) return Promise.reject(new Error(`${database.id} has no server connection`))
        return host.run(database.server, request)
      },
      close: () => host.close()
    }
  },
  catalog: { kind: 'server', open: async (server, signal) => (await import('./catalog')).openMysqlSource(server, signal) }
}
