import type { ServerConnection } from '../engines/server-config'
import type { Diagnostic } from '../../shared/prompt'

// The in-memory model of a project folder. It is built once when the project opens and kept current by
// the watcher, so prompt assembly and the agent's tools never scan the disk on the hot path.

/** One `databases:` entry of nao_config.yaml. */
export interface DatabaseConfig {
  name: string
  type: string
  /** Absolute path of a local database file (DuckDB/SQLite/CSV/Parquet), when the config names one. */
  path: string | null
  accessors: string[]
  include: string[]
  exclude: string[]
  /** A database server (a server engine's type): where and as whom to connect. Its password never prints. */
  server?: ServerConnection
}

export type { ServerConnection }

/** A connection as the prompt lists it: derived from `databases/type=<type>/database=<name>/` folder names. */
export interface Connection {
  type: string
  database: string
}

/** A synced table folder: `databases/type=…/database=…/schema=…/table=…/`. */
export interface TableRef {
  type: string
  database: string
  schema: string
  table: string
  /** Project-relative folder, with forward slashes. */
  dir: string
  /** File names present in the folder (columns.md, preview.md, …). */
  files: string[]
}

export interface Skill {
  name: string
  description: string
  /** Project-relative path, e.g. agent/skills/revenue.md */
  location: string
  body: string
}

export interface ProjectFile {
  /** Project-relative path with forward slashes. */
  source: string
  text: string
}

export interface ProjectSnapshot {
  /** Real path of the project folder (symlinks resolved). */
  root: string
  name: string
  rules: ProjectFile | null
  connections: Connection[]
  databases: DatabaseConfig[]
  tables: TableRef[]
  skills: Skill[]
  /** agent/prompts/system.md */
  systemOverride: ProjectFile | null
  /** agent/prompts/<channel>.md keyed by channel name (lower case). */
  channelOverrides: Record<string, ProjectFile>
  /** agent/prompts/user-prompt.md */
  userPromptOverride: ProjectFile | null
  /** Which free-context folders exist at the top level. */
  contextFolders: { databases: boolean; docs: boolean; semantics: boolean; repos: boolean; queries: boolean }
  /** Project-relative paths of tests/*.yml. */
  tests: string[]
  /**
   * Every project-relative file path visible to the agent (not under .git or node_modules, not matched by
   * .naoignore; symlinks only when they lead to a file inside the project), sorted.
   * A big project's first snapshot after opening lacks most of what is below databases/…/schema=…/; the next
   * snapshot, a debounce later, has it (see OpenProjectOptions.listSchemaFoldersAtOpenUpTo).
   */
  files: string[]
  /** The patterns of .naoignore, for `isHidden(path, patterns)` from ./visibility (shared: do not change). */
  ignorePatterns: readonly string[]
  diagnostics: Diagnostic[]
  /** Increments on every change the watcher applies; cheap cache key for derived data. */
  version: number
}
