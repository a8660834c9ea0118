import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../../test/support/fixtures'
import { syncProject } from '../../data/sync'

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

describe('DuckDB catalog for sync', () => {
  it('writes NOT NULL, keys and comments after nao’s type names, and the table comment as its description', async () => {
    const temp = makeTempDir('glassbox-duckdb-')
    cleanups.push(temp.cleanup)
    const instance = await DuckDBInstance.create(join(temp.dir, 'dealer.duckdb'))
    const connection = await instance.connect()
    await connection.run(`CREATE TABLE cars (id INTEGER PRIMARY KEY, model VARCHAR NOT NULL UNIQUE);
      CREATE TABLE sales (id BIGINT PRIMARY KEY, car_id INTEGER NOT NULL REFERENCES cars (id), sold_on DATE);
      COMMENT ON TABLE sales IS 'One row per sale';
      COMMENT ON COLUMN sales.sold_on IS 'Day of the sale,
local time';`)
    connection.closeSync()
    instance.closeSync()
    const config = { name: 'dealer', type: 'duckdb', path: join(temp.dir, 'dealer.duckdb'), accessors: ['columns'], include: [], exclude: [] }
    const result = await syncProject(temp.dir, { databases: [config] })
    expect(result.errors).toEqual([])
    const folder = join(temp.dir, 'databases/type=duckdb/database=dealer/schema=main')
    expect(readFileSync(join(folder, 'table=cars/columns.md'), 'utf8')).toContain('- id (int32) not null, primary key\n- model (string) not null, unique\n')
    expect(readFileSync(join(folder, 'table=sales/columns.md'), 'utf8')).toContain(
      '- id (int64) not null, primary key\n- car_id (int32) not null, → cars.id\n- sold_on (date) — Day of the sale, local time\n'
    )
    expect(readFileSync(join(folder, 'table=sales/description.md'), 'utf8')).toContain('## Description\n\nOne row per sale\n')
  })
})
