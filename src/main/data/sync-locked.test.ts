import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { writeFilesProject } from '../engines/files/data-files.testing'
import { loadProject } from '../project/load'
import { syncProject } from './sync'

// Sync reads data exactly as locked down as execute_sql (#11 B7), and documents declared data files (#14.1).

function everyFile(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((entry) => join(dir, entry)).filter((path) => statSync(path).isFile())
}

describe('sync opens data locked down', () => {
  let temp: ReturnType<typeof makeTempDir>
  let root: string
  let outside: string
  beforeEach(() => {
    temp = makeTempDir()
    root = join(temp.dir, 'project')
    outside = join(temp.dir, 'outside')
    mkdirSync(root)
    mkdirSync(outside)
  })
  afterEach(() => temp.cleanup())

  it('never copies an outside file into preview.md through a view of the project database', async () => {
    writeFileSync(join(outside, 'secret.csv'), 'secret\nTOP-SECRET-CSV\n')
    writeFileSync(join(outside, 'secret.txt'), 'TOP-SECRET-TEXT')
    const instance = await DuckDBInstance.create(join(root, 'shop.duckdb'))
    const connection = await instance.connect()
    await connection.run('CREATE TABLE orders AS SELECT range AS id FROM range(3)')
    await connection.run(`CREATE VIEW leak_csv AS SELECT * FROM read_csv('${join(outside, 'secret.csv')}')`)
    await connection.run(`CREATE VIEW leak_text AS SELECT * FROM read_text('${join(outside, 'secret.txt')}')`)
    await connection.run(`CREATE VIEW passwd AS SELECT * FROM read_csv('/etc/passwd', header = false)`)
    connection.closeSync()
    instance.closeSync()
    writeFileSync(join(root, 'nao_config.yaml'), 'databases:\n  - {name: shop, type: duckdb, path: shop.duckdb}\n')

    const result = await syncProject(root)

    expect(existsSync(join(root, 'databases/type=duckdb/database=shop/schema=main/table=orders/preview.md'))).toBe(true)
    const written = everyFile(join(root, 'databases')).map((path) => readFileSync(path, 'utf8')).join('\n')
    expect(written).not.toMatch(/TOP-SECRET|root:x:0/)
    for (const view of ['leak_csv', 'leak_text', 'passwd']) {
      expect(result.errors.some((error) => error.startsWith(`shop: main.${view}:`) && /disabled|Permission/i.test(error)), view).toBe(true)
    }
  })

  it('writes columns.md, preview.md and description.md for a declared CSV, Parquet glob and JSON file', async () => {
    await writeFilesProject(root)
    const result = await syncProject(root)
    expect(result.errors).toEqual([])
    const table = (database: string, name: string): string => join(root, `databases/type=${database}/schema=main/table=${name}`)
    expect(readFileSync(join(table('csv/database=sales', 'sales'), 'columns.md'), 'utf8')).toContain('- amount (float64)')
    expect(readFileSync(join(table('csv/database=sales', 'sales'), 'preview.md'), 'utf8')).toContain('"region": "north"')
    expect(readFileSync(join(table('parquet/database=items', 'items'), 'description.md'), 'utf8')).toContain('| **Row Count** | 3,000 |')
    expect(readFileSync(join(table('json/database=events', 'events'), 'columns.md'), 'utf8')).toContain('- kind (string)')
    // What the prompt's connection list and the @ picker read: the synced folders.
    const project = await loadProject(root)
    expect(project.connections).toEqual([
      { type: 'csv', database: 'sales' },
      { type: 'json', database: 'events' },
      { type: 'parquet', database: 'items' }
    ])
    expect(project.tables.map((ref) => `${ref.database}/${ref.schema}.${ref.table}:${ref.files.join(',')}`)).toEqual([
      'sales/main.sales:columns.md,description.md,preview.md',
      'events/main.events:columns.md,description.md,preview.md',
      'items/main.items:columns.md,description.md,preview.md'
    ])
  })

  it('refuses a declared glob that reaches outside the project', async () => {
    writeFileSync(join(outside, 'a.csv'), 'x\n1\n')
    writeFileSync(join(root, 'nao_config.yaml'), 'databases:\n  - {name: far, type: csv, path: ../outside/*.csv}\n')
    const result = await syncProject(root)
    expect(result.errors).toEqual([expect.stringMatching(/^far: Refused .*reaches outside the project/)])
    expect(existsSync(join(root, 'databases'))).toBe(false)
  })
})
