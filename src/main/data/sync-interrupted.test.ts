import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { copyNaoLayout } from '../../../test/support/fixtures'
import { syncProject } from './sync'
import type { CommitStep } from './table-folder'

const SCHEMA_DIR = 'databases/type=duckdb/database=jaffle_shop/schema=main'
const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

/** Every entry of every table folder with its text, hidden recovery folders included. */
function snapshot(root: string): Record<string, Record<string, string>> {
  const schemaDir = join(root, SCHEMA_DIR)
  const tables: Record<string, Record<string, string>> = {}
  for (const table of readdirSync(schemaDir).sort()) {
    tables[table] = Object.fromEntries(
      readdirSync(join(schemaDir, table))
        .sort()
        .map((file) => [file, readFileSync(join(schemaDir, table, file), 'utf8')])
    )
  }
  return tables
}

/** A copy of the example, synced, whose database then changes so the next sync rewrites every table. */
async function changedProject(): Promise<{ dir: string; before: ReturnType<typeof snapshot> }> {
  const project = copyNaoLayout()
  cleanups.push(project.cleanup)
  await syncProject(project.dir)
  writeFileSync(join(project.dir, SCHEMA_DIR, 'table=orders/annotations.md'), 'Amounts are in dollars.\n')
  const before = snapshot(project.dir)
  const instance = await DuckDBInstance.create(join(project.dir, 'jaffle_shop.duckdb'))
  const connection = await instance.connect()
  const tables = (await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE NOT internal")).getRowsJson()
  for (const [table] of tables) await connection.run(`ALTER TABLE "${String(table)}" ADD COLUMN synced_at VARCHAR DEFAULT 'v2'`)
  connection.closeSync()
  instance.closeSync()
  return { dir: project.dir, before }
}

describe('an interrupted sync', () => {
  for (const step of ['file-written', 'before-swap', 'old-moved-aside'] satisfies CommitStep[]) {
    it(`leaves every table old or new when it stops at '${step}' of the fourth table`, async () => {
      const { dir, before } = await changedProject()
      const tablesReached = new Set<string>()
      const interrupted = syncProject(dir, {
        probe: (at, table) => {
          tablesReached.add(table)
          if (at === step && tablesReached.size === 4) throw new Error('power cut')
        }
      })
      await expect(interrupted).rejects.toThrow('power cut')
      const middle = snapshot(dir)

      await syncProject(dir)
      const after = snapshot(dir)
      const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)
      // The five tables change (new column); the three stg_ views select fixed columns and do not.
      const changing = Object.keys(before).filter((table) => !same(before[table], after[table]))
      expect(changing).toEqual(['table=customers', 'table=orders', 'table=raw_customers', 'table=raw_orders', 'table=raw_payments'])
      expect(Object.keys(middle)).toEqual(Object.keys(before))
      const newInMiddle = changing.filter((table) => same(middle[table], after[table]))
      expect(newInMiddle).toEqual(['table=customers', 'table=orders', 'table=raw_customers'])
      for (const table of Object.keys(before)) if (!newInMiddle.includes(table)) expect(middle[table], table).toEqual(before[table])
      expect(after['table=orders']['annotations.md']).toBe('Amounts are in dollars.\n')
      expect(after['table=orders']['columns.md']).toContain('- synced_at (string)')
    })
  }

  it('puts back a table folder left aside by a sync killed between its two renames', async () => {
    const { dir, before } = await changedProject()
    const schemaDir = join(dir, SCHEMA_DIR)
    renameSync(join(schemaDir, 'table=orders'), join(schemaDir, '.table=orders.glassbox-old'))
    mkdirSync(join(schemaDir, '.table=orders.glassbox-new'))
    writeFileSync(join(schemaDir, '.table=orders.glassbox-new/columns.md'), 'half written')

    const result = await syncProject(dir)

    expect(result.errors).toEqual([])
    expect(readdirSync(schemaDir).filter((entry) => entry.startsWith('.'))).toEqual([])
    expect(readFileSync(join(schemaDir, 'table=orders/annotations.md'), 'utf8')).toBe(before['table=orders']['annotations.md'])
    expect(existsSync(join(schemaDir, 'table=orders/preview.md'))).toBe(true)
  })
})
