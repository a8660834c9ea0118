import { DuckDBInstance } from '@duckdb/node-api'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { ANALYST, postgresAvailable, startPostgres, type PostgresCluster } from '../../../test/support/postgres-server'
import { postgresEngine } from '../engines/postgres'
import { createServerQueryHost, type ServerQueryHost } from '../engines/query-process'
import { Secret } from '../engines/server-config'
import { trustingEverything } from '../trust/trust.testing'
import { judgeAnswer } from './classify-case'
import type { ResultTable } from './compare'
import { createSqlRunner, type SqlRunner } from './run-sql'
import { acceptableSql, type TestCase } from './test-cases'
import { CORPUS, CORPUS_SCHEMA, type VerdictCase } from './verdict-corpus'

// Every pair of the verdict corpus — expected SQL (one or several), answer SQL — run on a real engine and
// judged as an evaluation would judge it: the outcome, the deciding rule and the words of the verdict line.
// DuckDB always; Postgres (whose counts and decimals arrive as text, its dates as the server's text) when
// the machine has it.

type Run = (sql: string) => Promise<ResultTable>

function caseOf(entry: VerdictCase): TestCase {
  return {
    file: 'tests/corpus.yml',
    name: entry.question,
    prompt: entry.question,
    sql: acceptableSql(entry.expected),
    extraColumns: entry.extraColumns ?? 'ignore',
    duplicates: entry.duplicates ?? 'count',
    ...(entry.ordered === undefined ? {} : { ordered: entry.ordered })
  }
}

async function judge(entry: VerdictCase, run: Run) {
  const testCase = caseOf(entry)
  const results = []
  for (const sql of testCase.sql) results.push(await run(sql))
  const answer = await run(entry.answer)
  return judgeAnswer(testCase, { database: 'academic', results }, answer, { expected: 'academic', actual: 'academic' }, { actual: answer.rows, sql: entry.answer })
}

function expectVerdict(entry: VerdictCase, verdict: Awaited<ReturnType<typeof judge>>): void {
  expect({ outcome: verdict.outcome, rule: verdict.rule }, verdict.verdict).toEqual({ outcome: entry.verdict === 'pass' ? 'passed' : 'failed: wrong result', rule: entry.rule })
  if (entry.says) expect(verdict.verdict).toContain(entry.says)
  expect(verdict.verdict).toMatch(/; both ran on academic$/)
}

const labelled = CORPUS.map((entry, index) => [`${index + 1}. ${entry.question} → ${entry.verdict} (${entry.rule})`, entry] as const)

it('holds at least 60 verdicts, passes and failures, for every rule', () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(60)
  const rules = new Set(CORPUS.map((entry) => `${entry.verdict}:${entry.rule}`))
  for (const rule of ['pass:rows-any-order', 'pass:rows-in-order', 'fail:row-count', 'fail:columns', 'fail:extra-columns', 'fail:rows', 'fail:row-order']) expect(rules).toContain(rule)
})

describe('the verdict corpus on DuckDB', () => {
  let temp: ReturnType<typeof makeTempDir>
  let runner: SqlRunner
  beforeAll(async () => {
    temp = makeTempDir('glassbox-corpus-')
    const path = join(temp.dir, 'academic.duckdb')
    const instance = await DuckDBInstance.create(path)
    const connection = await instance.connect()
    await connection.run(CORPUS_SCHEMA)
    connection.closeSync()
    instance.closeSync()
    runner = createSqlRunner(path)
  })
  afterAll(() => {
    runner?.close()
    temp?.cleanup()
  })

  it.each(labelled)('%s', async (_label, entry) => {
    expectVerdict(entry, await judge(entry, (sql) => runner.run(sql)))
  })
})

const postgres = postgresAvailable()

describe.skipIf(!postgres)('the verdict corpus on Postgres', () => {
  let cluster: PostgresCluster
  let host: ServerQueryHost
  beforeAll(async () => {
    cluster = await startPostgres(`${CORPUS_SCHEMA}\nGRANT SELECT ON ALL TABLES IN SCHEMA public TO ${ANALYST.user};`)
    host = createServerQueryHost(postgresEngine.id)
  }, 120_000)
  afterAll(async () => {
    host?.close()
    await cluster?.stop()
  })

  const run: Run = async (sql) => {
    const server = { host: cluster.host, port: cluster.port, database: cluster.database, user: ANALYST.user, password: new Secret(ANALYST.password), schemaName: null }
    const result = await trustingEverything('verdict-corpus', () => host.run(server, { sql, keepRows: 10_000, timeoutMs: 30_000, signal: new AbortController().signal }))
    return { columns: result.columns, rows: result.rows }
  }

  it.each(labelled)('%s', async (_label, entry) => {
    expectVerdict(entry, await judge(entry, run))
  })
})
