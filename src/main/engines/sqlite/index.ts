import type { Engine } from '../engine'
import { fileStem } from '../catalog'
import { openSqliteFile } from './catalog'
import { SqliteRules } from './dialect'
import { createSqliteHost } from './runner'

// SQLite database files, read by better-sqlite3 in a child process that can be killed.

export const sqliteEngine: Engine = {
  id: 'sqlite',
  label: 'SQLite',
  configTypes: ['sqlite'],
  folderTypes: ['sqlite'],
  readOnly: 'the file is opened read-only with query_only, the statement must return rows and its compiled program may not attach or vacuum',
  dialect: { types: ['sqlite'], Rules: SqliteRules },
  recognizesFile: (header) => header.toString('latin1', 0, 15) === 'SQLite format 3',
  fileExtensions: ['.db', '.sqlite', '.sqlite3'],
  createHost: () => {
    const host = createSqliteHost()
    return { run: (database, request) => host.run(database.path, request), close: () => host.close() }
  },
  catalog: { kind: 'file', acceptsGlob: false, open: async (file) => openSqliteFile(file), databaseName: fileStem }
}
