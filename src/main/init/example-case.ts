import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import type { DataSource, TableName } from '../engines/catalog'
import { quoteIdentifier } from '../engines/catalog'
import { engineForConfig } from '../engines/registry'
import type { DatabaseConfig } from '../project/types'
import type { NewTestCase } from '../eval/save-test-case'
import { errorMessage } from '../../shared/error-message'
import type { DetectedDataFile } from './detect-data'

// The example evaluation case a new project starts with: a real question about its own data whose SQL is
// known to run — the row count of the biggest table — so `glassbox test` has something true to check from
// the first minute, and the analyst sees the shape of a case to copy.

/** Tables looked at per database; a warehouse dump with thousands of tables needs no full census. */
const MAX_TABLES = 200

export interface ExampleCase extends NewTestCase {
  /** The answer the SQL gives now (rows of the biggest table). */
  rows: number
}

export type ExampleOutcome = { ok: true; testCase: ExampleCase } | { ok: false; reason: string }

/** Opens each file read-only (locked down like sync) and builds the case from the table with most rows. */
export async function buildExampleCase(root: string, files: readonly DetectedDataFile[]): Promise<ExampleOutcome> {
  let best: { file: DetectedDataFile; table: TableName; rows: number } | null = null
  const problems: string[] = []
  for (const file of files) {
    let source: DataSource
    try {
      source = await openSource(root, file)
    } catch (error) {
      problems.push(`${file.path}: ${errorMessage(error).split('\n')[0]}`)
      continue
    }
    try {
      for (const table of (await source.listTables()).slice(0, MAX_TABLES)) {
        const { rowCount } = await source.readTable(table)
        if (!best || rowCount > best.rows) best = { file, table, rows: rowCount }
      }
    } catch (error) {
      problems.push(`${file.path}: ${errorMessage(error).split('\n')[0]}`)
    } finally {
      source.close()
    }
  }
  if (!best) return { ok: false, reason: problems.length > 0 ? problems.join('; ') : 'no table was found in the data files' }
  const { file, table, rows } = best
  const from = table.schema === 'main' ? quoteIdentifier(table.table) : `${quoteIdentifier(table.schema)}.${quoteIdentifier(table.table)}`
  return {
    ok: true,
    testCase: {
      name: `row_count_${table.table}`,
      prompt: `How many rows does the ${table.table} table have?`,
      sql: `SELECT count(*) AS row_count FROM ${from}`,
      database: file.name,
      rows
    }
  }
}

async function openSource(root: string, file: DetectedDataFile): Promise<DataSource> {
  // The engine sync would use for this file; its catalog reader loads its bindings only now.
  const path = realpathSync(join(root, file.path))
  const config: DatabaseConfig = { name: file.name, type: file.kind, path, accessors: [], include: [], exclude: [] }
  const catalog = engineForConfig(config)?.catalog
  if (catalog?.kind !== 'file') throw new Error(`${file.path} is not a database file Glassbox can open`)
  return catalog.open(path, config, realpathSync(root))
}
