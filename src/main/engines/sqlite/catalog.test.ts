import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../../test/support/fixtures'
import { syncProject } from '../../data/sync'

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

describe('SQLite catalog for sync', () => {
  it('writes NOT NULL, primary, unique and foreign keys after nao’s type names', async () => {
    const temp = makeTempDir('glassbox-sqlite-')
    cleanups.push(temp.cleanup)
    const db = new Database(join(temp.dir, 'dealer.sqlite'))
    db.exec(`CREATE TABLE cars (id INTEGER PRIMARY KEY, model TEXT NOT NULL UNIQUE);
      CREATE TABLE sales (car_id INTEGER NOT NULL REFERENCES cars (id), line INTEGER NOT NULL, sold_on DATE, PRIMARY KEY (car_id, line));
      INSERT INTO cars VALUES (1, 'Roadster'); INSERT INTO sales VALUES (1, 1, '2023-03-15');`)
    db.close()
    const config = { name: 'dealer', type: 'sqlite', path: join(temp.dir, 'dealer.sqlite'), accessors: ['columns'], include: [], exclude: [] }
    const result = await syncProject(temp.dir, { databases: [config] })
    expect(result.errors).toEqual([])
    const folder = join(temp.dir, 'databases/type=sqlite/database=dealer/schema=main')
    expect(readFileSync(join(folder, 'table=cars/columns.md'), 'utf8')).toContain('- id (int64) primary key\n- model (string) not null, unique\n')
    expect(readFileSync(join(folder, 'table=sales/columns.md'), 'utf8')).toContain(
      '- car_id (int64) not null, primary key (car_id, line), → cars.id\n- line (int64) not null, primary key (car_id, line)\n- sold_on (date)\n'
    )
  })
})
