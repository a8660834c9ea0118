import type { DataSourceView } from '../../shared/api'
import type { DatabaseConfig } from '../project/types'
import type { Engine, LocalDatabase } from './engine'
import { duckdbEngine } from './duckdb'
import { filesEngine } from './files'
import { mysqlEngine } from './mysql'
import { postgresEngine } from './postgres'
import { sqliteEngine } from './sqlite'

// Every engine Glassbox can run SQL on. Sync, execute_sql's database pool, evaluations, the prompt's
// dialect rules and nao_config.yaml's parser ask this list; nothing else names an engine. Order matters
// where two could claim one entry (a CSV declared as type duckdb is the files engine's) and fixes the
// order of the prompt's dialect sections.
export const ENGINES: readonly Engine[] = [filesEngine, duckdbEngine, sqliteEngine, postgresEngine, mysqlEngine]

export function engineById(id: string): Engine | null {
  return ENGINES.find((engine) => engine.id === id) ?? null
}

/** The engine a `databases:` entry belongs to, or null when Glassbox has none for its type. */
export function engineForConfig(config: Pick<DatabaseConfig, 'type' | 'path'>): Engine | null {
  const type = config.type.toLowerCase()
  return ENGINES.find((engine) => (engine.claims ? engine.claims(config) : engine.configTypes.includes(type))) ?? null
}

/** The server engine for a `type:` value (postgres, mysql, …), or null for file engines and unknown types. */
export function serverEngineForType(type: string): Engine | null {
  const lower = type.toLowerCase()
  return ENGINES.find((engine) => engine.resolveConnection && engine.configTypes.includes(lower)) ?? null
}

/** The engine whose database file this is, by its first bytes (the name may lie). */
export function engineForFileHeader(header: Buffer): Engine | null {
  return ENGINES.find((engine) => engine.recognizesFile?.(header)) ?? null
}

/** Extensions (lower case, with the dot) of database files worth opening when found in a project. */
export const DATABASE_FILE_EXTENSIONS: ReadonlySet<string> = new Set(ENGINES.flatMap((engine) => engine.fileExtensions ?? []))

/** `databases/type=<t>/` folder types (lower case) some engine can run SQL on. */
export const EXECUTABLE_FOLDER_TYPES: ReadonlySet<string> = new Set(ENGINES.flatMap((engine) => engine.folderTypes))

/** The engines' dialect rules, in registry order, each with the folder types it applies to. */
export function engineDialects(): Engine['dialect'][] {
  return ENGINES.map((engine) => engine.dialect).filter((dialect) => dialect.types.length > 0)
}

/** "DuckDB, SQLite, … and MySQL / MariaDB": for messages that say what Glassbox can read. */
export function engineLabels(): string {
  const labels = ENGINES.map((engine) => engine.label)
  return labels.length > 1 ? `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}` : labels.join('')
}

/** A queryable database as settings lists it: its engine by name, and how that engine keeps it read-only. */
export function describeDataSource(database: LocalDatabase): DataSourceView {
  const engine = engineById(database.engine)
  return { id: database.id, engine: engine?.label ?? database.engine, where: database.file, readOnly: engine?.readOnly ?? '' }
}
