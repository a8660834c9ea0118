import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { TestCaseResult } from '../../shared/api'
import { NAO_LAYOUT, makeTempDir } from '../../../test/support/fixtures'
import { createSqlRunner } from './run-sql'
import { runEvaluation, type AgentAnswer } from './run-evaluation'
import { loadTestCases } from './test-cases'

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function projectWithTests(files: Record<string, string>): string {
  const temp = makeTempDir('glassbox-eval-')
  cleanups.push(temp.cleanup)
  mkdirSync(join(temp.dir, 'tests'))
  for (const [file, text] of Object.entries(files)) writeFileSync(join(temp.dir, 'tests', file), text)
  return temp.dir
}

function jaffleSql() {
  const runner = createSqlRunner(join(NAO_LAYOUT, 'jaffle_shop.duckdb'))
  cleanups.push(runner.close)
  return runner.run
}

/** A fake agent that answers by running the SQL it is given for each prompt. */
function agentRunning(runSql: (sql: string) => Promise<{ columns: string[]; rows: unknown[][] }>, sqlFor: Record<string, string | null>) {
  return async (prompt: string): Promise<AgentAnswer> => {
    const sql = sqlFor[prompt]
    if (sql === undefined) throw new Error(`no scripted answer for "${prompt}"`)
    return { runId: `run-${prompt.length}`, lastSql: sql === null ? null : { sql, ...(await runSql(sql)) }, tokens: 42 }
  }
}

describe('loadTestCases', () => {
  it('turns missing fields and invalid YAML into error cases and keeps the good ones', async () => {
    const root = projectWithTests({
      'a_good.yml': 'name: good\nprompt: How many?\nsql: SELECT 1\n',
      'b_missing.yml': 'name: missing_sql\nprompt: How many?\n',
      'c_invalid.yml': 'name: [unclosed\nprompt: x\n',
      'd_list.yml': '- just\n- a list\n'
    })
    expect(await loadTestCases(root)).toEqual([
      { file: 'tests/a_good.yml', name: 'good', prompt: 'How many?', sql: 'SELECT 1' },
      { file: 'tests/b_missing.yml', name: 'missing_sql', error: "tests/b_missing.yml: 'sql' is missing" },
      { file: 'tests/c_invalid.yml', name: 'c_invalid', error: expect.stringMatching(/^tests\/c_invalid\.yml is not valid YAML: /) },
      { file: 'tests/d_list.yml', name: 'd_list', error: 'tests/d_list.yml: expected a mapping with name, prompt and sql' }
    ])
  })
})

describe('runEvaluation', () => {
  it('passes the nao-layout fixture when the agent runs the right SQL and fails it with a wrong one', async () => {
    const runSql = jaffleSql()
    const right = await runEvaluation({
      root: NAO_LAYOUT,
      runSql,
      ask: agentRunning(runSql, { 'What is the total revenue from all orders?': 'SELECT sum(amount) AS revenue FROM orders' })
    })
    expect(right).toMatchObject({ passed: 1, failed: 0, errored: 0 })
    expect(right.cases[0]).toMatchObject({ name: 'total_revenue', status: 'passed', expected: [[1734]], actual: [[1734]], runId: 'run-42', tokens: 42 })

    const wrong = await runEvaluation({
      root: NAO_LAYOUT,
      runSql,
      ask: agentRunning(runSql, { 'What is the total revenue from all orders?': "SELECT sum(amount) FROM orders WHERE status = 'completed'" })
    })
    expect(wrong).toMatchObject({ passed: 0, failed: 1, errored: 0 })
    expect(wrong.cases[0].message).toMatch(/^no row of the result matches expected row \[1734\]$/)
  })

  it('reports broken files, failing expected SQL, failed runs and runs without SQL, and still runs the rest', async () => {
    const root = projectWithTests({
      '1.yml': 'name: ok\nprompt: one\nsql: SELECT 1 AS x\n',
      '2.yml': 'name: no_prompt\nsql: SELECT 1\n',
      '3.yml': 'name: bad_sql\nprompt: two\nsql: SELECT * FROM no_such_table\n',
      '4.yml': 'name: agent_crash\nprompt: three\nsql: SELECT 1\n',
      '5.yml': 'name: no_query\nprompt: four\nsql: SELECT 1\n'
    })
    const runSql = jaffleSql()
    const seen: TestCaseResult[] = []
    const report = await runEvaluation({
      root,
      runSql,
      ask: agentRunning(runSql, { one: 'SELECT 1', two: 'SELECT 2', four: null }),
      onResult: (result) => seen.push(result)
    })
    expect(report).toMatchObject({ passed: 1, failed: 1, errored: 3 })
    expect(seen.map((result) => [result.name, result.status])).toEqual([
      ['ok', 'passed'],
      ['no_prompt', 'error'],
      ['bad_sql', 'error'],
      ['agent_crash', 'error'],
      ['no_query', 'failed']
    ])
    expect(seen[1].message).toBe("tests/2.yml: 'prompt' is missing")
    expect(seen[2].message).toMatch(/^the expected SQL of tests\/3\.yml failed: .*no_such_table/)
    expect(seen[3].message).toBe('the agent run failed: no scripted answer for "three"')
    expect(seen[4].message).toBe('the agent ran no SQL query')
  })

  it('stops before the next case when cancelled', async () => {
    const root = projectWithTests({ '1.yml': 'name: a\nprompt: p\nsql: SELECT 1\n', '2.yml': 'name: b\nprompt: p\nsql: SELECT 1\n' })
    const stop = new AbortController()
    const rows = { columns: ['x'], rows: [[1]] }
    const report = await runEvaluation({
      root,
      signal: stop.signal,
      runSql: async () => rows,
      ask: async () => {
        stop.abort()
        return { runId: 'r', lastSql: { sql: 'SELECT 1', ...rows }, tokens: 1 }
      }
    })
    expect(report.cases.map((result) => result.name)).toEqual(['a'])
  })

  it('adds under 50 ms per case beyond the agent itself', async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 20; i++) files[`${i}.yml`] = `name: case_${i}\nprompt: p${i}\nsql: SELECT ${i} AS x\n`
    const root = projectWithTests(files)
    const rows = { columns: ['x'], rows: [[1]] }
    const started = performance.now()
    const report = await runEvaluation({
      root,
      runSql: async () => rows,
      ask: async () => ({ runId: 'r', lastSql: { sql: 'SELECT 1', ...rows }, tokens: 1 })
    })
    expect(report.cases).toHaveLength(20)
    expect((performance.now() - started) / 20).toBeLessThan(50)
  })
})
