import { fileStem } from '../catalog'
import type { Engine, HostContext, QueryHost } from '../engine'
import { DuckDbRules } from './dialect'
import { projectFileAccess } from './project-file-access'
import type { DuckDbAccess, LockedDuckDb } from './runner'

// DuckDB database files. Each file gets its own locked instance, which may also read the project's visible
// data files by relative path. DuckDB's bindings load on first use (the runner and catalog are imported then).

export const duckdbEngine: Engine = {
  id: 'duckdb',
  label: 'DuckDB',
  configTypes: ['duckdb'],
  folderTypes: ['duckdb'],
  readOnly:
    'the file is opened read-only, the query must parse (json_serialize_sql) as SELECTs only, functions with effects are refused, external access is limited to the project\'s data files and the configuration is locked',
  dialect: { types: ['duckdb', 'motherduck', 'csv', 'parquet', 'json'], Rules: DuckDbRules },
  recognizesFile: (header) => header.toString('latin1', 8, 12) === 'DUCK',
  fileExtensions: ['.duckdb', '.ddb', '.db'],
  createHost: (context) => createDuckDbHost(context, (database) => database.path),
  catalog: { kind: 'file', acceptsGlob: false, open: async (file, _config, root) => (await import('./catalog')).openDuckDbFile(file, root), databaseName: fileStem }
}

/**
 * Locked DuckDB instances keyed by file ('' for in-memory), opened on the first query. `views` are created
 * in the in-memory one (the files engine's declared data files).
 */
export function createDuckDbHost(
  context: HostContext,
  keyOf: (database: { path: string }) => string,
  views: ReadonlyArray<{ name: string; select: string }> = []
): QueryHost {
  const instances = new Map<string, Promise<LockedDuckDb>>()
  // Computed on the first query, not for every run that never queries.
  let access: DuckDbAccess | null = null
  return {
    run: async (database, request) => {
      const key = keyOf(database)
      // DuckDB's bindings load on the first query, not with the project (the CLI's prompt never needs them).
      const runner = await import('./runner')
      let instance = instances.get(key)
      if (!instance) {
        access ??= context.root === null ? runner.NO_FILE_ACCESS : projectFileAccess(context.root, context.files)
        instance = key === '' ? runner.openLockedDuckDb(null, { ...access, views }) : runner.openLockedDuckDb(key, access)
        instances.set(key, instance)
        instance.catch(() => instances.delete(key))
      }
      return runner.runDuckDbQuery(await instance, request)
    },
    close: () => {
      for (const instance of instances.values()) void instance.then((opened) => opened.instance.closeSync(), () => undefined)
      instances.clear()
    }
  }
}
