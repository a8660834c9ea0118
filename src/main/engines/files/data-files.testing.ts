import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'

// A project with a CSV, a Parquet glob and a JSON file declared in nao_config.yaml, for sync and execute_sql
// tests. Built in a temp folder by each test.

export const DATA_FILES_CONFIG = `project_name: files
databases:
  - name: sales
    type: csv
    path: data/sales.csv
  - name: items
    type: parquet
    path: data/items/*.parquet
  - name: events
    type: json
    path: data/events.json
`

export async function writeFilesProject(root: string): Promise<void> {
  mkdirSync(join(root, 'data', 'items'), { recursive: true })
  writeFileSync(join(root, 'nao_config.yaml'), DATA_FILES_CONFIG)
  writeFileSync(join(root, 'data', 'sales.csv'), 'id,region,amount\n1,north,10.5\n2,south,20\n3,north,30\n')
  writeFileSync(join(root, 'data', 'events.json'), '[{"kind":"click","n":3},{"kind":"view","n":4}]')
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  for (const part of [1, 2]) {
    const file = join(root, 'data', 'items', `part-${part}.parquet`)
    await connection.run(`COPY (SELECT range AS id, 'item-' || range AS name, ${part} AS part FROM range(${part * 1000})) TO '${file}' (FORMAT parquet)`)
  }
  connection.closeSync()
  instance.closeSync()
}
