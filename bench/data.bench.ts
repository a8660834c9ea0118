import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { NAO_LAYOUT, makeTempDir } from '../test/support/fixtures'
import { syncProject } from '../src/main/data/sync'
import { runEvaluation } from '../src/main/eval/run-evaluation'
import { fileDatabases } from '../src/main/eval/run-sql'
import { loadTestCases } from '../src/main/eval/test-cases'
import { measure, type Figure } from './harness'

// sync/200-tables: a cold sync (databases/ removed first) of a DuckDB file with 200 tables.
// eval/overhead-per-case: one evaluation case with an agent that answers instantly, the expected SQL run
// for real on the nao-layout fixture; everything measured is overhead beyond the model's own time.

export async function* figures(): AsyncGenerator<Figure> {
  yield await syncFigure()
  yield await evalFigure()
}

async function syncFigure(): Promise<Figure> {
  const temp = makeTempDir('glassbox-bench-sync-')
  try {
    await makeWideDatabase(join(temp.dir, 'warehouse.duckdb'), 200)
    writeFileSync(join(temp.dir, 'nao_config.yaml'), 'databases:\n- name: warehouse\n  type: duckdb\n  path: ./warehouse.duckdb\n')
    return await measure(
      'sync/200-tables',
      async () => {
        rmSync(join(temp.dir, 'databases'), { recursive: true, force: true })
        const result = await syncProject(temp.dir)
        if (result.tables !== 200 || result.errors.length > 0) throw new Error(`sync bench: ${result.tables} tables, ${result.errors.join('; ')}`)
      },
      { n: 3, warmup: 1 }
    )
  } finally {
    temp.cleanup()
  }
}

async function makeWideDatabase(path: string, tables: number): Promise<void> {
  const instance = await DuckDBInstance.create(path)
  const connection = await instance.connect()
  for (let i = 0; i < tables; i++) {
    await connection.run(`CREATE TABLE table_${String(i).padStart(3, '0')} AS
      SELECT range AS id, 'name ' || range AS name, range * 1.5 AS amount, DATE '2024-01-01' + (range % 365)::INTEGER AS day,
             range % 7 = 0 AS flagged, (range % 100)::DECIMAL(10, 2) AS price, 'category ' || (range % 12) AS category
      FROM range(1000)`)
  }
  connection.closeSync()
  instance.closeSync()
}

async function evalFigure(): Promise<Figure> {
  const cases = (await loadTestCases(NAO_LAYOUT)).filter((testCase) => testCase.name === 'total_revenue')
  const databases = fileDatabases({ jaffle_shop: join(NAO_LAYOUT, 'jaffle_shop.duckdb') })
  try {
    const data = { sql: 'SELECT SUM(amount) FROM orders', columns: ['sum'], rows: [[1734]], totalRows: 1 }
    const answer = { runId: 'bench', stopReason: 'answer' as const, toolCalls: [{ name: 'execute_sql', args: {}, ok: true, output: '', data }], rounds: 1, inputTokens: 0, outputTokens: 0, firstTokenMs: null }
    const models = [{ endpoint: 'http://127.0.0.1:1/v1', model: 'bench' }]
    return await measure('eval/overhead-per-case', async () => {
      const [run] = await runEvaluation({ cases, models, databases, ask: async () => answer })
      if (run.results[0]?.outcome !== 'passed') throw new Error('eval bench: the case did not pass')
    })
  } finally {
    databases.close()
  }
}
