import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { NAO_LAYOUT, copyNaoLayout } from '../../../test/support/fixtures'
import { syncProject } from './sync'

const TABLES_DIR = 'databases/type=duckdb/database=jaffle_shop/schema=main'
const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function copy(): string {
  const project = copyNaoLayout()
  cleanups.push(project.cleanup)
  return project.dir
}

describe('syncProject on the nao-layout fixture', () => {
  it('regenerates every table exactly as the fixture has it', async () => {
    const dir = copy()
    rmSync(join(dir, 'databases'), { recursive: true })
    const progress: string[] = []
    const result = await syncProject(dir, { onProgress: (p) => progress.push(`${p.done}/${p.total}`) })

    expect(result.errors).toEqual([])
    const tables = readdirSync(join(NAO_LAYOUT, TABLES_DIR)).sort()
    expect(readdirSync(join(dir, TABLES_DIR)).sort()).toEqual(tables)
    expect(result.tables).toBe(tables.length)
    expect(progress.at(-1)).toBe(`${tables.length}/${tables.length}`)
    // The fixture's files were written by this sync (test/compat/nao-example.test.ts compares with nao's own).
    for (const table of tables) {
      for (const file of ['columns.md', 'description.md', 'preview.md']) {
        const expected = readFileSync(join(NAO_LAYOUT, TABLES_DIR, table, file), 'utf8')
        expect(readFileSync(join(dir, TABLES_DIR, table, file), 'utf8'), `${table}/${file}`).toBe(expected)
      }
    }
  })

  it('keeps files it does not produce and removes folders of tables that are gone', async () => {
    const dir = copy()
    const kept = join(dir, TABLES_DIR, 'table=orders/annotations.md')
    writeFileSync(kept, 'Amounts are in dollars.\n')
    const goneWithNote = join(dir, TABLES_DIR, 'table=old_orders')
    const goneBare = join(dir, TABLES_DIR, 'table=old_customers')
    for (const folder of [goneWithNote, goneBare]) {
      mkdirSync(folder)
      writeFileSync(join(folder, 'columns.md'), '# old\n')
      writeFileSync(join(folder, 'preview.md'), '# old\n')
    }
    writeFileSync(join(goneWithNote, 'annotations.md'), 'keep me\n')

    const result = await syncProject(dir)

    expect(readFileSync(kept, 'utf8')).toBe('Amounts are in dollars.\n')
    expect(existsSync(goneBare)).toBe(false)
    expect(readdirSync(goneWithNote)).toEqual(['annotations.md'])
    expect(result.removed.sort()).toEqual([`${TABLES_DIR}/table=old_customers`, `${TABLES_DIR}/table=old_orders`])
  })

  it('writes nothing when the files are already current', async () => {
    const dir = copy()
    await syncProject(dir)
    const again = await syncProject(dir)
    expect(again.written).toBe(0)
    expect(again.tables).toBeGreaterThan(0)
  })

  it('applies include and exclude patterns on schema.table', async () => {
    const dir = copy()
    rmSync(join(dir, 'databases'), { recursive: true })
    const result = await syncProject(dir, {
      databases: [
        {
          name: 'jaffle',
          type: 'duckdb',
          path: join(dir, 'jaffle_shop.duckdb'),
          accessors: ['columns'],
          include: ['main.raw_*', 'main.orders'],
          exclude: ['main.raw_payments']
        }
      ]
    })
    expect(result.errors).toEqual([])
    expect(readdirSync(join(dir, TABLES_DIR)).sort()).toEqual(['table=orders', 'table=raw_customers', 'table=raw_orders'])
    expect(readdirSync(join(dir, TABLES_DIR, 'table=orders')).sort()).toEqual(['columns.md', 'description.md'])
  })
})
