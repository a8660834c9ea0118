import type { Component } from '../prompt/markdown/jsx-runtime'
import type { DatabaseConfig } from '../project/types'
import type { DataSource } from './catalog'
import type { DialectProps } from './dialect-rules'
import type { QueryRequest, QueryResult } from './query-result'
import type { ServerConnection } from './server-config'

// What one engine provides. Everything outside src/main/engines/ reaches an engine through the registry
// (./registry.ts) and this shape, never by its name: adding an engine is one folder and one registry line.

/** A database execute_sql can reach, as the pool lists it. */
export interface LocalDatabase {
  /** What the model passes as database_id: the config name, or the file's project-relative path. */
  id: string
  /** The engine's id (an `Engine.id`). */
  engine: string
  /** Real absolute path, inside the project ('' for an in-memory database over files, and for servers). */
  path: string
  /** Project-relative path (or glob) of the file; for a server, `host:port/database`. */
  file: string
  /** A server engine's connection. */
  server?: ServerConnection
  /** Other names the model may use: the `database=` folder name sync gives it. */
  aliases?: string[]
}

/** What an engine's query host may use: the project it serves (nothing, for a lone database file). */
export interface HostContext {
  /** The project's real path, or null when one database file is queried on its own (evaluation). */
  root: string | null
  /** Project-relative files visible to the agent. */
  files: readonly string[]
  /** The declared databases, resolved. */
  databases: readonly DatabaseConfig[]
}

/** Runs read-only queries for the databases of one engine; opened lazily, closed with the pool. */
export interface QueryHost {
  run: (database: LocalDatabase, request: QueryRequest) => Promise<QueryResult>
  close: () => void
}

/** How sync opens a database of this engine for its catalog, locked down like execute_sql's connection. */
export type CatalogOpener =
  | {
      kind: 'server'
      open: (server: ServerConnection, signal: AbortSignal) => Promise<DataSource>
    }
  | {
      kind: 'file'
      /** True when a glob may stand for the file (the engine reads many files as one table). */
      acceptsGlob: boolean
      /** `file` is the real path (or a glob inside the project). */
      open: (file: string, config: DatabaseConfig, root: string) => Promise<DataSource>
      /** The `databases/type=…/database=<this>/` name sync gives it. */
      databaseName: (config: DatabaseConfig) => string
    }

export interface Engine {
  /** Also the folder type sync writes: `databases/type=<id>/`. */
  id: string
  /** As people name it: "DuckDB", "MySQL / MariaDB". */
  label: string
  /** `type:` values of nao_config.yaml (lower case) this engine takes. */
  configTypes: readonly string[]
  /** `databases/type=<t>/` folder types (lower case) whose SQL this engine runs. */
  folderTypes: readonly string[]
  /** One sentence: how the engine keeps every query read-only (settings, README). */
  readOnly: string
  /** The prompt's rules for this dialect, and the folder types (lower case) they apply to. */
  dialect: { types: readonly string[]; Rules: Component<DialectProps> }
  /**
   * Server engines: the connection of a `databases:` entry. The one place its `{{ env('…') }}` values are
   * resolved (and where a trust check goes). Problems are reported by `problem`; null when unusable.
   */
  resolveConnection?: (entry: unknown, problem: (message: string) => void) => ServerConnection | null
  /** Engines with database files: whether a file's first 16 bytes are one of theirs. */
  recognizesFile?: (header: Buffer) => boolean
  /** File extensions (lower case, with the dot) of this engine's database files found in a project. */
  fileExtensions?: readonly string[]
  /** Whether a `databases:` entry is this engine's (default: its type is one of `configTypes`). */
  claims?: (config: Pick<DatabaseConfig, 'type' | 'path'>) => boolean
  /**
   * A declared entry as a queryable database, for engines whose entries are neither a server nor one
   * database file (the files engine's CSVs and globs); null when the entry is not one of those.
   */
  discover?: (config: DatabaseConfig, projectRoot: string) => LocalDatabase | null
  /** A database nobody declared, offered from what was found so far (the project's data files). */
  implicitDatabase?: (found: readonly LocalDatabase[], projectFiles: readonly string[]) => LocalDatabase | null
  createHost: (context: HostContext) => QueryHost
  catalog: CatalogOpener
}
