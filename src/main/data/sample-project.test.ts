import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT, makeTempDir } from '../../../test/support/fixtures'
import { runSqlReadOnly } from '../eval/run-sql'
import { SAMPLE_TABLES } from './sample-dataset'
import { makeSampleProject } from './sample-project'

const COMMITTED = join(REPO_ROOT, 'resources/sample-project')
const temp = makeTempDir('glassbox-sample-')
const regenerated = join(temp.dir, 'sample-project')

beforeAll(() => makeSampleProject(regenerated), 60_000)
afterAll(() => temp.cleanup())

/** Row count and a checksum of every row of every table, in a stable order. */
async function tableFingerprints(dbPath: string): Promise<Record<string, unknown>> {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' })
  const connection = await instance.connect()
  const fingerprints: Record<string, unknown> = {}
  for (const table of SAMPLE_TABLES) {
    const reader = await connection.runAndReadAll(
      `SELECT count(*)::INTEGER, md5(string_agg(t::VARCHAR, chr(10) ORDER BY t::VARCHAR)) FROM ${table} t`
    )
    fingerprints[table] = reader.getRowsJson()[0]
  }
  connection.closeSync()
  instance.closeSync()
  return fingerprints
}

function textFiles(dir: string): Record<string, string> {
  const files: Record<string, string> = {}
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (!entry.name.endsWith('.duckdb')) files[relative(dir, path)] = readFileSync(path, 'utf8')
    }
  }
  walk(dir)
  return files
}

describe('the sample project', () => {
  it('is regenerated with the same rows as the committed database', async () => {
    const committed = await tableFingerprints(join(COMMITTED, 'shop.duckdb'))
    expect(await tableFingerprints(join(regenerated, 'shop.duckdb'))).toEqual(committed)
    expect(committed.orders).toEqual([3000, expect.any(String)])
  })

  it('is regenerated with the same context folder, rules, skills and tests as committed', () => {
    expect(textFiles(regenerated)).toEqual(textFiles(COMMITTED))
  })

  it('has at least 8 test cases whose SQL runs and returns rows', async () => {
    const testFiles = readdirSync(join(COMMITTED, 'tests')).filter((file) => file.endsWith('.yml'))
    expect(testFiles.length).toBeGreaterThanOrEqual(8)
    for (const file of testFiles) {
      const testCase: unknown = parse(readFileSync(join(COMMITTED, 'tests', file), 'utf8'))
      const sql = testCase && typeof testCase === 'object' && 'sql' in testCase ? String(testCase.sql) : ''
      const result = await runSqlReadOnly(join(COMMITTED, 'shop.duckdb'), sql)
      expect(result.rows.length, file).toBeGreaterThan(0)
    }
  })
})
