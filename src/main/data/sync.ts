import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import picomatch from 'picomatch'
import type { SyncProgress } from '../../shared/api'
import { isInside, PathOutsideProjectError, ProjectPathMissingError, resolveInside } from '../project/safe-path'
import type { DatabaseConfig } from '../project/types'
import { DEFAULT_ACCESSORS } from '../project/config'
import { firstLine, readDatabaseConfigs } from './database-config'
import type { DataSource, TableName } from '../engines/catalog'
import { isGlobPath } from '../engines/files/data-files'
import { engineForConfig, engineLabels } from '../engines/registry'
import {
  assertWritableInside,
  commitTableFolder,
  recoverTableFolders,
  removeIfEmpty,
  removeTableFolder,
  WriteOutsideProjectError,
  type CommitProbe,
  type TableCommit
} from './table-folder'
import type { TableContent } from '../engines/table-content'
import { folderSegment, shortHash } from './folder-names'
import { renderColumns, renderDescription, renderPreview } from './table-markdown'

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
  /** Project-relative files sync wrote or removed. */
  changed: string[]
  /** Project-relative files sync would have written but did not write itself: left untouched. */
  changedBySomeoneElse: string[]
  errors: string[]
  warnings: string[]
  /** Why the database was not synced at all (not an error: e.g. a server database, offline). */
  skipped?: string
}

export interface SyncResult {
  tables: number
  written: number
  removed: string[]
  /** Project-relative files sync wrote or removed. */
  changed: string[]
  /** Files sync did not write itself (nao's own, or edited since): left untouched, listed so a person can decide. */
  changedBySomeoneElse: string[]
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

async function runSync(givenRoot: string, options: SyncOptions): Promise<SyncResult> {
  // Every path below is built on the real root, so "inside the project" and the paths reported agree.
  const root = realpathSync(givenRoot)
  const rootReal = root
  const configs = options.databases ? { databases: options.databases, problems: [] } : readDatabaseConfigs(root)
  const results: DatabaseSyncResult[] = []
  const plans: Plan[] = []
  const signal = options.signal ?? new AbortController().signal
  try {
    for (const config of configs.databases) {
      const result: DatabaseSyncResult = {
        name: config.name,
        folder: null,
        tables: 0,
        written: 0,
        removed: [],
        changed: [],
        changedBySomeoneElse: [],
        errors: [],
        warnings: []
      }
      results.push(result)
      const plan = await planDatabase(root, config, result, signal)
      if (plan) plans.push(distinctFolder(plan, plans))
    }
    const total = plans.reduce((sum, plan) => sum + plan.tables.length, 0)
    let done = 0
    for (const plan of plans) {
      try {
        // databases/ (or any folder below it) linked out of the project: nothing is written or removed there.
        assertWritableInside(rootReal, plan.dir)
      } catch (error) {
        if (!(error instanceof WriteOutsideProjectError)) throw error
        plan.result.errors.push(error.message)
        done += plan.tables.length
        continue
      }
      forEachSchemaDir(plan.dir, recoverTableFolders)
      for (const name of plan.tables) {
        if (signal.aborted) throw new SyncCancelledError(done, total)
        await syncTable(rootReal, plan, name, options.probe)
        done++
        options.onProgress?.({ done, total, table: `${plan.result.name}: ${name.schema}.${name.table}` })
      }
      removeGoneTables(rootReal, plan)
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
    changed: results.flatMap((result) => result.changed),
    changedBySomeoneElse: results.flatMap((result) => result.changedBySomeoneElse),
    databases: results,
    errors
  }
}

/**
 * Two declared databases that would share a folder (`a/shop.sqlite` and `b/shop.sqlite`) would overwrite and
 * then delete each other's files: the first keeps the plain folder, a later one gets its name's hash.
 */
function distinctFolder(plan: Plan, earlier: readonly Plan[]): Plan {
  if (!earlier.some((other) => other.dir === plan.dir)) return plan
  const suffix = `~${shortHash(plan.config.name)}`
  plan.result.folder = `${plan.result.folder ?? ''}${suffix}`
  return { ...plan, dir: `${plan.dir}${suffix}` }
}

/** Opens the database and lists its tables; null (with the reason in `result`) when it cannot be synced. */
async function planDatabase(root: string, config: DatabaseConfig, result: DatabaseSyncResult, signal: AbortSignal): Promise<Plan | null> {
  const unsupported = config.accessors.filter((accessor) => !['columns', 'preview', 'description'].includes(accessor))
  if (unsupported.length > 0) result.warnings.push(`accessor(s) not supported, skipped: ${unsupported.join(', ')}`)
  const engine = engineForConfig(config)
  if (!engine) {
    result.skipped = `type '${config.type}' is not a source Glassbox can read (${engineLabels()})`
    return null
  }
  const catalog = engine.catalog
  if (catalog.kind === 'server') {
    const server = config.server
    if (!server) {
      result.errors.push(`the ${config.type} connection in nao_config.yaml is incomplete (see its diagnostics)`)
      return null
    }
    let source: DataSource
    try {
      source = await catalog.open(server, signal)
    } catch (error) {
      result.errors.push(`cannot open ${server.host}:${server.port}/${server.database}: ${firstLine(error)}`)
      return null
    }
    return listPlan(root, config, result, source, `databases/type=${folderSegment(engine.id)}/database=${folderSegment(server.database)}`, `${server.host}:${server.port}/${server.database}`)
  }
  const declared = config.path
  if (!declared) {
    result.errors.push(`no 'path:' given in nao_config.yaml for this ${config.type} database`)
    return null
  }
  const shown = relative(root, declared) || declared
  let file: string
  if (isGlobPath(declared) && catalog.acceptsGlob) {
    // A glob names no single file; it must stay inside the project as written (DuckDB, locked to the glob's
    // folder, refuses what it matches through a symlink out).
    const rootReal = realpathSync(root)
    if (!isInside(rootReal, resolve(root, declared))) {
      result.errors.push(`Refused "${shown}": the glob reaches outside the project. Only files inside the project folder can be read.`)
      return null
    }
    file = resolve(rootReal, relative(root, resolve(root, declared)))
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
    if (!statSync(file).isFile()) {
      // A named pipe or device declared as a database would block whatever opens it.
      result.errors.push(`${shown} is not a regular file (a pipe, socket or device); only database files are read`)
      return null
    }
  }
  let source: DataSource
  try {
    source = await catalog.open(file, config, root)
  } catch (error) {
    result.errors.push(`cannot open ${shown} as ${config.type}: ${firstLine(error)}`)
    return null
  }
  return listPlan(root, config, result, source, `databases/type=${folderSegment(config.type)}/database=${folderSegment(catalog.databaseName(config))}`, shown)
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

/** nao's rule: a table is synced when it matches an include pattern (or there are none) and no exclude pattern. */
function tableFilter(config: DatabaseConfig): (qualified: string) => boolean {
  const included = config.include.length > 0 ? picomatch(config.include) : () => true
  const excluded = config.exclude.length > 0 ? picomatch(config.exclude) : () => false
  return (qualified) => included(qualified) && !excluded(qualified)
}

async function syncTable(rootReal: string, plan: Plan, name: TableName, probe: CommitProbe | undefined): Promise<void> {
  const tableDir = join(plan.dir, `schema=${folderSegment(name.schema)}`, `table=${folderSegment(name.table)}`)
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
  let commit: TableCommit
  try {
    commit = commitTableFolder(rootReal, tableDir, files, probe)
  } catch (error) {
    if (error instanceof WriteOutsideProjectError) {
      plan.result.errors.push(`${name.schema}.${name.table}: ${error.message}`)
      return
    }
    // A file system refusal (a file where a folder goes, a full disk) costs this table, not the sync.
    if (!isFileSystemError(error)) throw error
    const folder = relative(rootReal, tableDir).split(sep).join('/')
    plan.result.errors.push(`${name.schema}.${name.table}: cannot write ${folder}: ${firstLine(error)}`)
    return
  }
  record(plan.result, projectPath(rootReal, tableDir), commit)
  if (commit.changed.length > 0) plan.result.written++
  plan.result.tables++
}

function record(result: DatabaseSyncResult, folder: string, commit: TableCommit): void {
  result.changed.push(...commit.changed.map((file) => `${folder}/${file}`))
  result.changedBySomeoneElse.push(...commit.foreign.map((file) => `${folder}/${file}`))
}

/** Project-relative path of `path`, whose parent folder exists. */
function projectPath(rootReal: string, path: string): string {
  return relative(rootReal, realpathSync(dirname(path))).split(sep).concat(basename(path)).filter(Boolean).join('/')
}

function removeGoneTables(rootReal: string, plan: Plan): void {
  const kept = new Set(plan.tables.map((name) => join(plan.dir, `schema=${folderSegment(name.schema)}`, `table=${folderSegment(name.table)}`)))
  forEachSchemaDir(plan.dir, (schemaDir) => {
    for (const entry of readdirSync(schemaDir, { withFileTypes: true })) {
      const tableDir = join(schemaDir, entry.name)
      if (!entry.isDirectory() || !entry.name.startsWith('table=') || kept.has(tableDir)) continue
      const folder = projectPath(rootReal, tableDir)
      let commit: TableCommit
      try {
        commit = removeTableFolder(rootReal, tableDir)
      } catch (error) {
        if (!(error instanceof WriteOutsideProjectError)) throw error
        plan.result.errors.push(error.message)
        continue
      }
      record(plan.result, folder, commit)
      if (commit.changed.length > 0) plan.result.removed.push(folder)
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

function isFileSystemError(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' && 'syscall' in error
}
