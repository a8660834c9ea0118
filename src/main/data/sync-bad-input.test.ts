import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import type { DatabaseConfig } from '../project/types'
import { syncProject } from './sync'

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function tempProject(): string {
  const temp = makeTempDir('glassbox-sync-')
  cleanups.push(temp.cleanup)
  return temp.dir
}

function database(root: string, name: string, type: string, file: string): DatabaseConfig {
  return { name, type, path: join(root, file), accessors: ['columns', 'preview', 'description'], include: [], exclude: [] }
}

async function makeDuckDb(path: string, statements: string[]): Promise<void> {
  const instance = await DuckDBInstance.create(path)
  const connection = await instance.connect()
  for (const sql of statements) await connection.run(sql)
  connection.closeSync()
  instance.closeSync()
}

const read = (root: string, path: string) => readFileSync(join(root, 'databases', path), 'utf8')

describe('syncProject with bad input', () => {
  it('reports a missing database file and still syncs the others', async () => {
    const root = tempProject()
    writeFileSync(join(root, 'people.csv'), 'id,name\n1,Ada\n2,Grace\n')
    const result = await syncProject(root, {
      databases: [database(root, 'gone', 'duckdb', 'missing.duckdb'), database(root, 'people', 'duckdb', 'people.csv')]
    })
    expect(result.errors).toEqual(['gone: database file not found: missing.duckdb (declared in nao_config.yaml)'])
    expect(read(root, 'type=duckdb/database=people/schema=main/table=people/columns.md')).toContain('- name (string)')
  })

  it('reports corrupt DuckDB and SQLite files by name', async () => {
    const root = tempProject()
    writeFileSync(join(root, 'broken.duckdb'), 'this is not a database'.repeat(500))
    writeFileSync(join(root, 'broken.sqlite'), 'this is not a database either'.repeat(500))
    const result = await syncProject(root, {
      databases: [database(root, 'duck', 'duckdb', 'broken.duckdb'), database(root, 'lite', 'sqlite', 'broken.sqlite')]
    })
    expect(result.errors).toHaveLength(2)
    expect(result.errors[0]).toMatch(/^duck: cannot open broken\.duckdb as duckdb: /)
    expect(result.errors[1]).toMatch(/^lite: cannot open broken\.sqlite as sqlite: file is not a database/)
    expect(result.tables).toBe(0)
  })

  it('skips the malformed rows of a CSV with a warning naming the line', async () => {
    const root = tempProject()
    writeFileSync(join(root, 'sales.csv'), 'id,region,amount\n1,north,2.5\n2,south,3\n3,east,4,extra\n4,west,5\n')
    const result = await syncProject(root, { databases: [database(root, 'sales', 'duckdb', 'sales.csv')] })
    expect(result.errors).toEqual([])
    expect(result.databases[0].warnings).toEqual([
      'sales.csv: 1 malformed row(s) skipped, first at line 4 (Expected Number of Columns: 3 Found: 4)'
    ])
    const description = read(root, 'type=duckdb/database=sales/schema=main/table=sales/description.md')
    expect(description).toContain('| **Row Count** | 3 |')
    expect(read(root, 'type=duckdb/database=sales/schema=main/table=sales/columns.md')).toContain('- amount (float64)')
  })

  it('writes a table with 500 columns', async () => {
    const root = tempProject()
    const columns = Array.from({ length: 500 }, (_, i) => `c${i} INTEGER`).join(', ')
    const values = Array.from({ length: 500 }, (_, i) => String(i)).join(', ')
    await makeDuckDb(join(root, 'wide.duckdb'), [`CREATE TABLE wide (${columns})`, `INSERT INTO wide VALUES (${values})`])
    const result = await syncProject(root, { databases: [database(root, 'wide', 'duckdb', 'wide.duckdb')] })
    expect(result.errors).toEqual([])
    const columnsMd = read(root, 'type=duckdb/database=wide/schema=main/table=wide/columns.md')
    expect(columnsMd).toContain('## Columns (500)')
    expect(columnsMd).toContain('- c499 (int32)\n')
    expect(read(root, 'type=duckdb/database=wide/schema=main/table=wide/preview.md')).toContain('"c499": 499}')
  })

  it('caps a 10 MB text cell in the preview with a marker', async () => {
    const root = tempProject()
    await makeDuckDb(join(root, 'docs.duckdb'), [
      'CREATE TABLE docs (id INTEGER, body VARCHAR)',
      `INSERT INTO docs VALUES (1, repeat('x', 10 * 1024 * 1024)), (2, 'short')`
    ])
    const result = await syncProject(root, { databases: [database(root, 'docs', 'duckdb', 'docs.duckdb')] })
    expect(result.errors).toEqual([])
    const path = 'type=duckdb/database=docs/schema=main/table=docs/preview.md'
    expect(read(root, path)).toContain(`${'x'.repeat(20)}… [10,484,760 more characters]"}`)
    expect(read(root, path)).toContain('{"id": 2, "body": "short"}')
    expect(statSync(join(root, 'databases', path)).size).toBeLessThan(2_000)
  })

  it('caps a 10 MB text cell from SQLite too', async () => {
    const root = tempProject()
    const db = new Database(join(root, 'notes.sqlite'))
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT, score REAL, created DATE)')
    db.prepare('INSERT INTO notes VALUES (?, ?, ?, ?)').run(1, 'y'.repeat(10 * 1024 * 1024), 2, '2024-01-31')
    db.close()
    const result = await syncProject(root, { databases: [database(root, 'notes', 'sqlite', 'notes.sqlite')] })
    expect(result.errors).toEqual([])
    expect(read(root, 'type=sqlite/database=notes/schema=main/table=notes/columns.md')).toBe(
      '# notes\n\n**Dataset:** `main`\n\n## Columns (4)\n\n- id (int64) primary key\n- body (string)\n- score (float64)\n- created (date)\n'
    )
    const preview = read(root, 'type=sqlite/database=notes/schema=main/table=notes/preview.md')
    expect(preview).toContain('… [10,484,760 more characters]", "score": 2.0, "created": "2024-01-31"}')
  })

  it('reads Parquet files as one table', async () => {
    const root = tempProject()
    await makeDuckDb(':memory:', [
      `COPY (SELECT range AS id, 'item ' || range AS label, DATE '2024-01-01' + range::INTEGER AS day FROM range(3))
       TO '${join(root, 'items.parquet')}' (FORMAT parquet)`
    ])
    const result = await syncProject(root, { databases: [database(root, 'items', 'duckdb', 'items.parquet')] })
    expect(result.errors).toEqual([])
    expect(readdirSync(join(root, 'databases/type=duckdb/database=items/schema=main'))).toEqual(['table=items'])
    expect(read(root, 'type=duckdb/database=items/schema=main/table=items/preview.md')).toContain(
      '- {"id": 0, "label": "item 0", "day": "2024-01-01 00:00:00"}'
    )
  })

  it('refuses a database file outside the project', async () => {
    const root = tempProject()
    const outside = tempProject()
    writeFileSync(join(outside, 'elsewhere.csv'), 'id\n1\n')
    const result = await syncProject(root, {
      databases: [{ ...database(root, 'far', 'duckdb', 'x.csv'), path: join(outside, 'elsewhere.csv') }]
    })
    expect(result.errors).toEqual([expect.stringMatching(/^far: Refused ".*elsewhere\.csv": it is an absolute path outside the project/)])
  })

  it('reports a type it cannot read offline as skipped, not as an error', async () => {
    const root = tempProject()
    const result = await syncProject(root, {
      databases: [{ name: 'warehouse', type: 'snowflake', path: null, accessors: [], include: [], exclude: [] }]
    })
    expect(result.errors).toEqual([])
    expect(result.databases[0].skipped).toMatch(/type 'snowflake' is not a source Glassbox can read/)
  })
})
