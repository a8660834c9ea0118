import type { Engine } from '../engine'
import { readServerConnection } from '../server-config'
import { openMysqlSource } from './catalog'
import { MySqlRules } from './dialect'
import { createMysqlHost } from './runner'

// MySQL and MariaDB servers, through `mysql2`.

export const mysqlEngine: Engine = {
  id: 'mysql',
  label: 'MySQL / MariaDB',
  configTypes: ['mysql', 'mariadb'],
  folderTypes: ['mysql', 'mariadb'],
  readOnly:
    'the session is SET SESSION TRANSACTION READ ONLY, each query runs in START TRANSACTION READ ONLY … ROLLBACK after the server parsed it under EXPLAIN (SELECT-like only), INTO OUTFILE/DUMPFILE, named locks and LOAD_FILE are refused, max_statement_time (MariaDB) or max_execution_time (MySQL) limits it; Stop is KILL QUERY',
  dialect: { types: ['mysql', 'mariadb'], Rules: MySqlRules },
  resolveConnection: (entry, problem, env) => readServerConnection(entry, { label: 'mysql', port: 3306 }, problem, env),
  createHost: () => {
    const host = createMysqlHost()
    return {
      run: (database, request) => {
        if (!database.server) throw new Error(`${database.id} has no server connection`)
        return host.run(database.server, request)
      },
      close: () => host.close()
    }
  },
  catalog: { kind: 'server', open: openMysqlSource }
}
