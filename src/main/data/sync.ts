import { existsSync, readdirSync, realpathSync } from 'node:fs'
import { basename, extname, join, relative, resolve } from 'node:path'
import picomatch from 'picomatch'
import type { SyncProgress } from '../../shared/api'
import { isInside, PathOutsideProjectError, ProjectPathMissingError, resolveInside } from '../project/safe-path'
import type { DatabaseConfig } from '../project/types'
import { DEFAULT_ACCESSORS, firstLine, readDatabaseConfigs } from './database-config'
import type { DataSource, TableName } from './data-source'
import { dataFileDatabaseName, dataFileTableName, declaredDataFormat, isGlobPath, type DataFileFormat } from './data-files'
import { openDataFile, openDuckDbFile } from './duckdb-source'
import { openPostgresSource } from './postgres-source'
import { openSqliteFile } from './sqlite-source'
import { commitTableFolder, recoverTableFolders, removeIfEmpty, removeTableFolder, type CommitProbe } from './table-folder'
import { renderColumns, renderDescription, renderPreview, type TableContent } from './table-markdown'

// `sync`: regenerates databases/type=<type>/database=<db>/schema=<s>/table=<t>/ from the database files
// declared in nao_config.yaml. Each database succeeds or fails on its own; each table folder is replaced
// atomically; folders of tables that are gone lose the files sync wrote (and only those).

export interface SyncOptions {
  onProgress?: (progress: SyncProgress) => void
  /** The declared databases, when the caller already has them (e.g. from the loaded project). */
  databases?: DatabaseConfig[]
  /** Stops the sync between tables (and a running server query at once); finished tables stay written. */
  signal?: AbortSignal
  /** Test seam: called at each step of a table commit; throwing there interrupts the sync. */
  probe?: CommitProbe
}

export interface DatabaseSyncResult {
  name: string
  /** Project-relative folder, e.g. databases/type=duckdb/database=jaffle_shop; null if skipped early. */
  folder: string | null
  tables: number
  /** Tables whose files changed. */
  written: number
  /** Project-relative table folders whose generated files were removed. */
  removed: string[]
  errors: string[]
  warnings: string[]
  /** Why the database was not synced at all (not an error: e.g. a server database, offline). */
  skipped?: string
}

export interface SyncResult {
  tables: number
  written: number
  removed: string[]
  databases: DatabaseSyncResult[]
  /** Every error, prefixed with the database name; the rest was still synced. */
  errors: string[]
}

interface Plan {
  config: DatabaseConfig
  result: DatabaseSyncResult
  source: DataSource
  dir: string
  tables: TableName[]
}

/** The sync was stopped; the tables written before the stop are complete (each folder is old or new). */
export class SyncCancelledError extends Error {
  constructor(
    readonly done: number,
    readonly total: number
  ) {
    super(`Sync cancelled after ${done} of ${total} tables.`)
    this.name = 'SyncCancelledError'
  }
}

const running = new Map<string, Promise<SyncResult>>()

export function syncProject(root: string, options: SyncOptions = {}): Promise<SyncResult> {
  // Two syncs of one project at once would swap the same folders: the second waits for the first.
  const previous = running.get(root) ?? Promise.resolve(null)
  const next = previous.catch(() => null).then(() => runSync(root, options))
  running.set(root, next)
  return next.finally(() => {
    if (running.get(root) === next) running.delete(root)
  })
}

async function runSync(root: string, options: SyncOptions): Promise<SyncResult> {
  const configs = options.databases ? { databases: options.databases, problems: [] } : readDatabaseConfigs(root)
  const results: DatabaseSyncResult[] = []
  const plans: Plan[] = []
  const signal = options.signal ?? new AbortController().signal
  try {
    for (const config of configs.databases) {
      const result: DatabaseSyncResult = { name: config.name, folder: null, tables: 0, written: 0, removed: [], errors: [], warnings: [] }
      results.push(result)
      const plan = await planDatabase(root, config, result, signal)
      if (plan) plans.push(plan)
    }
    const total = plans.reduce((sum, plan) => sum + plan.tables.length, 0)
    let done = 0
    for (const plan of plans) {
      forEachSchemaDir(plan.dir, recoverTableFolders)
      for (const name of plan.tables) {
        if (signal.aborted) throw new SyncCancelledError(done, total)
        await syncTable(plan, name, options.probe)
        done++
        options.onProgress?.({ done, total, table: `${plan.result.name}: ${name.schema}.${name.table}` })
      }
      removeGoneTables(root, plan)
    }
  } finally {
    for (const plan of plans) plan.source.close()
  }
  const errors = [
    ...configs.problems,
    ...results.flatMap((result) => result.errors.map((error) => `${result.name}: ${error}`))
  ]
  return {
    tables: results.reduce((sum, result) => sum + result.tables, 0),
    written: results.reduce((sum, result) => sum + result.written, 0),
    removed: results.flatMap((result) => result.removed),
    databases: results,
    errors
  }
}

/** Opens the database and lists its tables; null (with the reason in `result`) when it cannot be synced. */
async function planDatabase(root: string, config: DatabaseConfig, result: DatabaseSyncResult, signal: AbortSignal): Promise<Plan | null> {
  const unsupported = config.accessors.filter((accessor) => !['columns', 'preview', 'description'].includes(accessor))
  if (unsupported.length > 0) result.warnings.push(`accessor(s) not supported, skipped: ${unsupported.join(', ')}`)
  if (config.server) {
    const server = config.server
    return listPlan(root, config, result, openPostgresSource(server, signal), `databases/type=postgres/database=${safeSegment(server.database)}`, `${server.host}:${server.port}/${server.database}`)
  }
  const declared = config.path
  const kind = sourceKind(config)
  if (!kind) {
    result.skipped = `type '${config.type}' is not a source Glassbox can read (DuckDB, SQLite, CSV, Parquet, JSON files; Postgres servers)`
    return null
  }
  if (!declared) {
    result.errors.push(`no 'path:' given in nao_config.yaml for this ${config.type} database`)
    return null
  }
  const shown = relative(root, declared) || declared
  let file: string
  if (isGlobPath(declared)) {
    // A glob names no single file; it must stay inside the project as written (DuckDB, locked to the glob's
    // folder, refuses what it matches through a symlink out).
    if (!isInside(realpathSync(root), resolve(root, declared))) {
      result.errors.push(`Refused "${shown}": the glob reaches outside the project. Only files inside the project folder can be read.`)
      return null
    }
    file = resolve(realpathSync(root), relative(root, resolve(root, declared)))
  } else {
    try {
      // Like every project-driven read, the declared file must be inside the project (symlinks resolved).
      file = resolveInside(root, declared)
    } catch (error) {
      if (!(error instanceof ProjectPathMissingError || error instanceof PathOutsideProjectError)) throw error
      const missing = error instanceof ProjectPathMissingError
      result.errors.push(missing ? `database file not found: ${shown} (declared in nao_config.yaml)` : error.message)
      return null
    }
  }
  let source: DataSource
  try {
    source =
      kind === 'sqlite'
        ? openSqliteFile(file)
        : kind === 'duckdb'
          ? await openDuckDbFile(file, root)
          : await openDataFile(file, kind, dataFileTableName(config), root)
  } catch (error) {
    result.errors.push(`cannot open ${shown} as ${kind}: ${firstLine(error)}`)
    return null
  }
  const database = kind === 'sqlite' || kind === 'duckdb' ? basename(declared, extname(declared)) : dataFileDatabaseName(config)
  return listPlan(root, config, result, source, `databases/type=${safeSegment(config.type)}/database=${safeSegment(database)}`, shown)
}

async function listPlan(root: string, config: DatabaseConfig, result: DatabaseSyncResult, source: DataSource, folder: string, shown: string): Promise<Plan | null> {
  result.warnings.push(...source.warnings)
  result.folder = folder
  try {
    const matches = tableFilter(config)
    const tables = (await source.listTables()).filter((name) => matches(`${name.schema}.${name.table}`))
    return { config, result, source, dir: join(root, folder), tables }
  } catch (error) {
    source.close()
    result.errors.push(`cannot list the tables of ${shown}: ${firstLine(error)}`)
    return null
  }
}

function sourceKind(config: DatabaseConfig): 'duckdb' | 'sqlite' | DataFileFormat | null {
  const format = declaredDataFormat(config)
  if (format) return format
  if (config.type === 'duckdb' || config.type === 'sqlite') return config.type
  return null
}

/** nao's rule: a table is synced when it matches an include pattern (or there are none) and no exclude pattern. */
function tableFilter(config: DatabaseConfig): (qualified: string) => boolean {
  const included = config.include.length > 0 ? picomatch(config.include) : () => true
  const excluded = config.exclude.length > 0 ? picomatch(config.exclude) : () => false
  return (qualified) => included(qualified) && !excluded(qualified)
}

async function syncTable(plan: Plan, name: TableName, probe: CommitProbe | undefined): Promise<void> {
  const tableDir = join(plan.dir, `schema=${safeSegment(name.schema)}`, `table=${safeSegment(name.table)}`)
  let content: TableContent
  try {
    content = await plan.source.readTable(name)
  } catch (error) {
    // The old files (if any) stay: a table that cannot be read now is not a table that is gone.
    plan.result.errors.push(`${name.schema}.${name.table}: ${firstLine(error)}`)
    return
  }
  const files = new Map<string, string>()
  const accessors = plan.config.accessors.length > 0 ? plan.config.accessors : DEFAULT_ACCESSORS
  if (accessors.includes('columns')) files.set('columns.md', renderColumns(content))
  // nao writes description.md whatever the accessors say (the example lists only columns and preview).
  files.set('description.md', renderDescription(content))
  if (accessors.includes('preview')) files.set('preview.md', renderPreview(content))
  if (commitTableFolder(tableDir, files, probe)) plan.result.written++
  plan.result.tables++
}

function removeGoneTables(root: string, plan: Plan): void {
  const kept = new Set(plan.tables.map((name) => join(plan.dir, `schema=${safeSegment(name.schema)}`, `table=${safeSegment(name.table)}`)))
  forEachSchemaDir(plan.dir, (schemaDir) => {
    for (const entry of readdirSync(schemaDir, { withFileTypes: true })) {
      const tableDir = join(schemaDir, entry.name)
      if (!entry.isDirectory() || !entry.name.startsWith('table=') || kept.has(tableDir)) continue
      removeTableFolder(tableDir)
      plan.result.removed.push(relative(root, tableDir).split('\\').join('/'))
    }
    removeIfEmpty(schemaDir)
  })
}

function forEachSchemaDir(databaseDir: string, visit: (schemaDir: string) => void): void {
  if (!existsSync(databaseDir)) return
  for (const entry of readdirSync(databaseDir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name.startsWith('schema=')) visit(join(databaseDir, entry.name))
  }
}

/** Names come from the database and become folder names: path separators would escape the folder. */
function safeSegment(name: string): string {
  return name.replace(/[/\\\0]/g, '_')
}
