import { statSync } from 'node:fs'
import { basename, extname } from 'node:path'
import type { LocalDatabase, QueryHost } from '../../engines/engine'
import type { QueryRequest, QueryResult } from '../../engines/query-result'
import { DATABASE_FILE_EXTENSIONS, engineById, engineForConfig, engineForFileHeader, ENGINES, engineLabels } from '../../engines/registry'
import { readRegularFileSync } from '../../project/regular-file'
import { resolveInside, toProjectPath } from '../../project/safe-path'
import type { ProjectSnapshot } from '../../project/types'

// The databases execute_sql can reach: the files and servers nao_config.yaml names, then database files
// found in the project, then what an engine offers undeclared (the project's data files). Files must be
// inside the project; a file's engine is chosen by its header, not its name. Each engine's query host is
// opened on its first query.

export type { LocalDatabase }
export { PROJECT_FILES_ID } from '../../engines/files'

export interface DatabasePool {
  list: () => LocalDatabase[]
  /** Finds the database for a database_id (name, file path, or file stem); the only one when absent. */
  find: (databaseId: string | undefined) => LocalDatabase
  run: (database: LocalDatabase, request: QueryRequest) => Promise<QueryResult>
  close: () => void
}

export function createDatabasePool(project: ProjectSnapshot, projectFiles: readonly string[] = []): DatabasePool {
  const { databases, unusable } = discoverDatabases(project, projectFiles)
  const hosts = new Map<string, QueryHost>()
  const context = { root: project.root, files: projectFiles, databases: project.databases }

  const find = (databaseId: string | undefined): LocalDatabase => {
    const wanted = databaseId?.trim().toLowerCase()
    const declaredButUnusable = unusable.find((entry) => wanted === undefined || entry.names.includes(wanted))
    if (declaredButUnusable && (wanted !== undefined || databases.length === 0)) throw new Error(declaredButUnusable.reason)
    if (databases.length === 0) {
      throw new Error(`This project has nothing to query: nao_config.yaml declares no database, and no database or data file was found (Glassbox reads ${engineLabels()}).`)
    }
    if (!wanted) return databases[0]
    const match = databases.find((db) =>
      [db.id, db.file, basename(db.file), basename(db.file, extname(db.file)), ...(db.aliases ?? [])].some((name) => name.toLowerCase() === wanted)
    )
    if (!match) throw new Error(`Unknown database_id "${databaseId}". Available: ${databases.map((db) => db.id).join(', ')}.`)
    return match
  }

  return {
    list: () => databases,
    find,
    run: async (database, request) => {
      let host = hosts.get(database.engine)
      if (!host) {
        const engine = engineById(database.engine)
        if (!engine) throw new Error(`No engine "${database.engine}" for ${database.id}.`)
        host = engine.createHost(context)
        hosts.set(database.engine, host)
      }
      return host.run(database, request)
    },
    close: () => {
      for (const host of hosts.values()) host.close()
      hosts.clear()
    }
  }
}

/** A declared database file that cannot be queried, with the sentence that says why. */
interface UnusableDatabase {
  /** Lower-case names the model may use for it: the config name, the file path and its stem. */
  names: string[]
  reason: string
}

function discoverDatabases(project: ProjectSnapshot, projectFiles: readonly string[]): { databases: LocalDatabase[]; unusable: UnusableDatabase[] } {
  const found: LocalDatabase[] = []
  const unusable: UnusableDatabase[] = []
  const seen = new Set<string>()
  const add = (id: string, candidate: string, declared: boolean): void => {
    let path: string
    try {
      path = resolveInside(project.root, candidate)
    } catch {
      return
    }
    const engine = engineOf(path)
    if (!engine && declared) {
      const file = toProjectPath(project.root, path)
      const names = [id, file, basename(file), basename(file, extname(file))].map((name) => name.toLowerCase())
      unusable.push({ names, reason: unusableReason(id, file, path) })
      return
    }
    if (!engine || seen.has(path)) return
    seen.add(path)
    found.push({ id, engine, path, file: toProjectPath(project.root, path) })
  }
  for (const config of project.databases) {
    const engine = engineForConfig(config)
    if (config.server && engine?.resolveConnection) {
      const { host, port, database } = config.server
      found.push({ id: config.name, engine: engine.id, path: '', file: `${host}:${port}/${database}`, server: config.server, aliases: [database] })
      continue
    }
    const declared = engine?.discover?.(config, project.root)
    if (declared) {
      found.push(declared)
      continue
    }
    if (config.path) add(config.name, config.path, true)
  }
  for (const file of projectFiles) if (DATABASE_FILE_EXTENSIONS.has(extname(file).toLowerCase())) add(file, file, false)
  for (const engine of ENGINES) {
    const implicit = engine.implicitDatabase?.(found, projectFiles)
    if (implicit) found.push(implicit)
  }
  return { databases: found, unusable }
}

function unusableReason(id: string, file: string, path: string): string {
  let regular = false
  try {
    regular = statSync(path).isFile()
  } catch {
    // Gone since the snapshot: said below as not a database file.
  }
  if (!regular) return `The database "${id}" declared in nao_config.yaml is ${file}, which is not a regular file (a pipe, socket, device or folder); only database files are opened.`
  return `The database "${id}" declared in nao_config.yaml is ${file}, which is not a database file Glassbox can open (${engineLabels()}).`
}

/**
 * The id of the engine whose database file this is, by its header. Only a regular file is opened: a named
 * pipe declared as a database would otherwise block here for ever.
 */
export function engineOf(path: string): string | null {
  let header: Buffer
  try {
    header = readRegularFileSync(path, 16)
  } catch {
    return null
  }
  return engineForFileHeader(header)?.id ?? null
}
