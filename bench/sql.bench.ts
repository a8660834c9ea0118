import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import pg from 'pg'
import { makeTempDir } from '../test/support/fixtures'
import { ANALYST, findPostgresBin, postgresConfig, SHOP_SQL, startPostgres } from '../test/support/postgres-server'
import { executeSqlTool } from '../src/main/agent/tools/execute-sql'
import { makeToolContext } from '../src/main/agent/tools/tool-context.testing'
import { trustingEverything } from '../src/main/trust/trust.testing'
import { measure, withFloor, type Figure } from './harness'

// sql/parquet-scan-1m: an aggregate over a 1M-row Parquet file in the project through execute_sql (locked
// DuckDB, parse-tree vetting, path rewrite, result budget); floor: the same query on a plain DuckDB.
// sql/postgres-round: a simple aggregate on a live Postgres through execute_sql (read-only transaction,
// cursor, caps, in the query process); floor: the same query with `pg` directly on an open connection.
// sql/postgres-wide-values: 250 rows of 20 MB each through execute_sql, cut to 10,000 characters a cell on the
// server (no floor: `pg` alone would move 5 GB).

export async function* figures(): AsyncGenerator<Figure> {
  yield await parquetFigure()
  yield* await postgresFigures()
}

async function parquetFigure(): Promise<Figure> {
  const temp = makeTempDir('glassbox-bench-parquet-')
  try {
    mkdirSync(join(temp.dir, 'data'))
    const file = join(temp.dir, 'data', 'sales.parquet')
    const plain = await DuckDBInstance.create(':memory:')
    const connection = await plain.connect()
    await connection.run(`COPY (SELECT range AS id, (ARRAY['north', 'south', 'east', 'west'])[1 + range % 4] AS region, (range % 1000) * 0.5 AS amount
      FROM range(1000000)) TO '${file}' (FORMAT parquet)`)
    writeFileSync(join(temp.dir, 'nao_config.yaml'), 'databases:\n  - {name: sales, type: parquet, path: data/sales.parquet}\n')
    const sql = "SELECT region, count(*) AS n, sum(amount) AS total FROM read_parquet('data/sales.parquet') GROUP BY region ORDER BY region"
    const ctx = await makeToolContext(temp.dir)
    try {
      const figure = await measure(
        'sql/parquet-scan-1m',
        async () => {
          const result = await trustingEverything(temp.dir, () => executeSqlTool.invoke({ sql_query: sql }, ctx))
          if (!result.ok || !result.output.includes('| 250000 |')) throw new Error(`parquet bench: ${result.output}`)
        },
        { n: 20 }
      )
      const floor = await measure('duckdb-plain/parquet-scan-1m', () => connection.runAndReadAll(sql.replace('data/sales.parquet', file)), { n: 20 })
      return withFloor(figure, floor)
    } finally {
      ctx.close()
      connection.closeSync()
      plain.closeSync()
    }
  } finally {
    temp.cleanup()
  }
}

async function postgresFigures(): Promise<Figure[]> {
  if (!findPostgresBin()) {
    process.stderr.write('sql/postgres-round skipped: install Debian `postgresql` (initdb, pg_ctl) to measure it.\n')
    return []
  }
  const cluster = await startPostgres(SHOP_SQL)
  const temp = makeTempDir('glassbox-bench-pg-')
  process.env.GLASSBOX_TEST_PG_PASSWORD = ANALYST.password
  writeFileSync(join(temp.dir, 'nao_config.yaml'), postgresConfig(cluster.port))
  const sql = 'SELECT region, count(*) AS n, sum(amount) AS total FROM orders GROUP BY region ORDER BY region'
  const ctx = await makeToolContext(temp.dir)
  const raw = new pg.Client({ host: cluster.host, port: cluster.port, database: cluster.database, user: ANALYST.user, password: ANALYST.password })
  await raw.connect()
  try {
    const figure = await measure('sql/postgres-round', async () => {
      const result = await trustingEverything(temp.dir, () => executeSqlTool.invoke({ sql_query: sql }, ctx))
      if (!result.ok || !result.output.includes('| north |')) throw new Error(`postgres bench: ${result.output}`)
    })
    const floor = await measure('pg-direct/aggregate', () => raw.query(sql))
    const wide = await measure(
      'sql/postgres-wide-values',
      async () => {
        const wideSql = "SELECT g, repeat('x', 20000000) AS s FROM generate_series(1, 250) g"
        const result = await trustingEverything(temp.dir, () => executeSqlTool.invoke({ sql_query: wideSql }, ctx))
        if (!result.ok || !result.output.includes('(250 total)')) throw new Error(`postgres bench: ${result.output}`)
      },
      { n: 5, warmup: 1 }
    )
    return [withFloor(figure, floor), wide]
  } finally {
    await raw.end()
    ctx.close()
    temp.cleanup()
    await cluster.stop()
  }
}
