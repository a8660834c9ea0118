import { basename, extname } from 'node:path'
import picomatch from 'picomatch'
import type { DatabaseConfig } from '../../project/types'
import { quoteLiteral } from '../catalog'

// CSV, Parquet and JSON files declared in nao_config.yaml (one file, or a glob inside the project) are
// tables read through DuckDB. Sync and execute_sql name them the same way, so what sync documents under
// databases/ is what the agent can query.

export type DataFileFormat = 'csv' | 'parquet' | 'json'

const FORMAT_BY_EXTENSION: Record<string, DataFileFormat> = {
  '.csv': 'csv',
  '.tsv': 'csv',
  '.parquet': 'parquet',
  '.pq': 'parquet',
  '.json': 'json',
  '.jsonl': 'json',
  '.ndjson': 'json'
}

export function dataFileFormat(path: string): DataFileFormat | null {
  return FORMAT_BY_EXTENSION[extname(path).toLowerCase()] ?? null
}

/** The declared format: the file's extension first (nao projects declare CSVs as type duckdb), then the type. */
export function declaredDataFormat(config: Pick<DatabaseConfig, 'type' | 'path'>): DataFileFormat | null {
  const byPath = config.path ? dataFileFormat(config.path) : null
  if (byPath) return byPath
  return config.type === 'csv' || config.type === 'parquet' || config.type === 'json' ? config.type : null
}

export function isGlobPath(path: string): boolean {
  return picomatch.scan(path).isGlob
}

/** The table a data file becomes: its file name without the extension; a glob's table is the database name. */
export function dataFileTableName(config: Pick<DatabaseConfig, 'name' | 'path'>): string {
  if (!config.path || isGlobPath(config.path)) return config.name
  return basename(config.path, extname(config.path))
}

/** The `databases/type=…/database=<this>` name: the file's stem, or the database name for a glob. */
export function dataFileDatabaseName(config: Pick<DatabaseConfig, 'name' | 'path'>): string {
  return dataFileTableName(config)
}

/** DuckDB table function reading the file(s); CSV rows that do not parse are skipped, not fatal. */
export function dataFileReader(absolutePath: string, format: DataFileFormat, csvRejects: 'store' | 'ignore' = 'ignore'): string {
  const path = quoteLiteral(absolutePath)
  if (format === 'parquet') return `read_parquet(${path})`
  if (format === 'json') return `read_json_auto(${path})`
  // Rejected CSV rows are kept aside (sync reports them) or skipped: a broken row must neither fail the whole
  // file nor, as it does without either option, mislead the dialect sniffer into reading one column.
  return `read_csv(${path}, ${csvRejects === 'store' ? 'store_rejects = true' : 'ignore_errors = true'})`
}
