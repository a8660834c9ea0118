import type { Engine } from '../engine'
import { readServerConnection } from '../server-config'
import { MySqlRules } from './dialect'
import type { MysqlHost } from './runner'

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
    // The driver loads with the first query, not with every project that merely lists a server.
    let host: Promise<MysqlHost> | null = null
    return {
      run: async (database, request) => {
        if (!database.server) throw new Error(`${database.id} has no server connection`)
        host ??= import('./runner').then((runner) => runner.createMysqlHost())
        return (await host).run(database.server, request)
      },
      close: () => void host?.then((opened) => opened.close())
    }
  },
  catalog: { kind: 'server', open: async (server, signal) => (await import('./catalog')).openMysqlSource(server, signal) }
}
