import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import type { CaseRun } from './classify-case'
import { fileDatabases } from './run-sql'
import { runEvaluation, type EvalDatabases, type EvalModel, type EvalProgress } from './run-evaluation'
import { loadTestCases, type TestCase } from './test-cases'

const SAMPLE_PROJECT = join(REPO_ROOT, 'resources/sample-project')
const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function projectWithTests(files: Record<string, string>): string {
  const temp = makeTempDir('glassbox-eval-')
  cleanups.push(temp.cleanup)
  mkdirSync(join(temp.dir, 'tests'))
  for (const [file, text] of Object.entries(files)) writeFileSync(join(temp.dir, 'tests', file), text)
  return temp.dir
}

function shopDatabase() {
  const databases = fileDatabases({ shop: join(SAMPLE_PROJECT, 'shop.duckdb') })
  cleanups.push(databases.close)
  return databases
}

/** One database whose every query returns `rows` (counting the queries). */
function fixedDatabase(rows: unknown[][], onQuery: () => void = () => undefined): EvalDatabases {
  return { names: ['db'], resolve: () => 'db', run: async () => (onQuery(), { columns: ['x'], rows }) }
}

/** A run whose last execute_sql returned `rows` (or that ran none). */
function runWith(overrides: Partial<CaseRun> & { sql?: string; rows?: unknown[][] }): CaseRun {
  const { sql, rows, ...rest } = overrides
  const toolCalls = sql === undefined ? [] : [{ name: 'execute_sql', args: { sql_query: sql }, ok: true, output: '', data: { sql, columns: ['x'], rows: rows ?? [], totalRows: rows?.length ?? 0 } }]
  return { runId: 'run-1', stopReason: 'answer', toolCalls, rounds: 1, inputTokens: 100, outputTokens: 10, firstTokenMs: 5, ...rest }
}

const A: EvalModel = { endpoint: 'http://127.0.0.1:1/v1', model: 'a' }
const B: EvalModel = { endpoint: 'http://127.0.0.1:1/v1', model: 'b' }
const ELSEWHERE: EvalModel = { endpoint: 'http://127.0.0.1:2/v1', model: 'c' }

describe('loadTestCases', () => {
  it('turns missing fields and invalid YAML into error cases and keeps the good ones', async () => {
    const root = projectWithTests({
      'a_good.yml': 'name: good\nprompt: How many?\nsql: SELECT 1\n',
      'b_missing.yml': 'name: missing_sql\nprompt: How many?\n',
      'c_invalid.yml': 'name: [unclosed\nprompt: x\n',
      'd_list.yml': '- just\n- a list\n'
    })
    expect(await loadTestCases(root)).toEqual([
      { file: 'tests/a_good.yml', name: 'good', prompt: 'How many?', sql: ['SELECT 1'], extraColumns: 'ignore', duplicates: 'count' },
      { file: 'tests/b_missing.yml', name: 'missing_sql', error: "tests/b_missing.yml: 'sql' is missing" },
      { file: 'tests/c_invalid.yml', name: 'c_invalid', error: expect.stringMatching(/^tests\/c_invalid\.yml is not valid YAML: /) },
      { file: 'tests/d_list.yml', name: 'd_list', error: 'tests/d_list.yml: expected a mapping with name, prompt and sql' }
    ])
  })
})

describe('loadTestCases: how a case is judged', () => {
  it('reads database, a list of acceptable SQLs, ordered, extra_columns, duplicates and category, with defaults', async () => {
    const root = projectWithTests({
      'a_all.yml': 'name: all\nprompt: Who?\nsql:\n  - SELECT name FROM author\n  - SELECT aid FROM author\ndatabase: academic\nordered: true\nextra_columns: forbid\nduplicates: ignore\ncategory: join\n',
      'b_bad.yml': 'name: bad\nprompt: Who?\nsql: []\nordered: sometimes\nextra_columns: maybe\nduplicates: twice\n'
    })
    expect(await loadTestCases(root)).toEqual([
      { file: 'tests/a_all.yml', name: 'all', prompt: 'Who?', sql: ['SELECT name FROM author', 'SELECT aid FROM author'], database: 'academic', ordered: true, extraColumns: 'forbid', duplicates: 'ignore', category: 'join' },
      {
        file: 'tests/b_bad.yml',
        name: 'bad',
        error: "tests/b_bad.yml: 'sql' must list at least one SQL; 'ordered' must be true or false; 'extra_columns' must be 'ignore' or 'forbid'; 'duplicates' must be 'count' or 'ignore'"
      }
    ])
  })
})

describe('runEvaluation', () => {
  it('runs every case for every model and classifies each outcome', async () => {
    const root = projectWithTests({
      '1.yml': 'name: right\nprompt: one\nsql: SELECT 1 AS x\n',
      '2.yml': 'name: wrong\nprompt: two\nsql: SELECT 2 AS x\n',
      '3.yml': 'name: no_sql\nprompt: three\nsql: SELECT 3\n',
      '4.yml': 'name: tool\nprompt: four\nsql: SELECT 4\n',
      '5.yml': 'name: loop\nprompt: five\nsql: SELECT 5\n',
      '6.yml': 'name: rounds\nprompt: six\nsql: SELECT 6\n',
      '7.yml': 'name: crash\nprompt: seven\nsql: SELECT 7\n',
      '8.yml': 'name: bad_expected\nprompt: eight\nsql: SELECT * FROM no_such_table\n',
      '9.yml': 'name: broken\nsql: SELECT 1\n'
    })
    const runs: Record<string, CaseRun> = {
      one: runWith({ sql: 'SELECT 1', rows: [[1]] }),
      two: runWith({ sql: 'SELECT 3', rows: [[3]] }),
      three: runWith({}),
      four: runWith({ toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELEC 4' }, ok: false, output: 'Parser Error: syntax error at or near "SELEC"' }] }),
      five: runWith({ stopReason: 'loop-guard', sql: 'SELECT 5', rows: [[5]] }),
      six: runWith({ stopReason: 'round-limit' }),
      seven: runWith({ stopReason: 'error', error: 'connection refused' }),
      eight: runWith({ sql: 'SELECT 8', rows: [[8]] })
    }
    const [a, b] = await runEvaluation({
      cases: await loadTestCases(root),
      models: [A, B],
      databases: shopDatabase(),
      ask: async (model, testCase) => runs[testCase.prompt]
    })
    expect(a.results.map((result) => [result.name, result.outcome, result.status])).toEqual([
      ['right', 'passed', 'passed'],
      ['wrong', 'failed: wrong result', 'failed'],
      ['no_sql', 'failed: no SQL', 'failed'],
      ['tool', 'error: tool', 'error'],
      ['loop', 'error: loop guard', 'error'],
      ['rounds', 'error: round limit', 'error'],
      ['crash', 'error: run', 'error'],
      ['bad_expected', 'error: run', 'error'],
      ['broken', 'error: run', 'error']
    ])
    expect(b.results).toHaveLength(9)
    expect(a.results[0]).toMatchObject({ file: 'tests/1.yml', expected: [[1]], actual: [[1]], sql: 'SELECT 1', runId: 'run-1', rounds: 1, inputTokens: 100, outputTokens: 10, tokens: 110, firstTokenMs: 5 })
    expect(a.results[3].message).toBe('every execute_sql failed; the last: Parser Error: syntax error at or near "SELEC"')
    expect(a.results[6].message).toBe('the agent run failed: connection refused')
    expect(a.results[7].message).toMatch(/^the expected SQL of tests\/8\.yml failed on shop: .*no_such_table/)
    expect(a.results[8].message).toBe("tests/9.yml: 'prompt' is missing")
  })

  it('runs one case at a time per server, servers side by side, and runs each expected query once', async () => {
    const root = projectWithTests({ '1.yml': 'name: a\nprompt: p\nsql: SELECT 1\n', '2.yml': 'name: b\nprompt: q\nsql: SELECT 1\n' })
    const busy = new Map<string, number>()
    let most = 0
    let together = 0
    let expectedRuns = 0
    await runEvaluation({
      cases: await loadTestCases(root),
      models: [A, B, ELSEWHERE],
      databases: fixedDatabase([[1]], () => expectedRuns++),
      ask: async (model) => {
        busy.set(model.endpoint, (busy.get(model.endpoint) ?? 0) + 1)
        most = Math.max(most, busy.get(model.endpoint) ?? 0)
        together = Math.max(together, [...busy.values()].reduce((sum, count) => sum + count, 0))
        await new Promise((done) => setTimeout(done, 20))
        busy.set(model.endpoint, (busy.get(model.endpoint) ?? 1) - 1)
        return runWith({ sql: 'SELECT 1', rows: [[1]] })
      }
    })
    expect(most).toBe(1)
    expect(together).toBe(2)
    expect(expectedRuns).toBe(2)
  })

  it('runs the expected SQL where each model queried, once per database, and names both sides in the verdict', async () => {
    const root = projectWithTests({ '1.yml': 'name: a\nprompt: p\nsql: SELECT 1\n' })
    const ran: string[] = []
    const databases: EvalDatabases = {
      names: ['north', 'south'],
      resolve: (name) => name ?? 'north',
      run: async (database, sql) => (ran.push(`${database}: ${sql}`), { columns: ['x'], rows: [[database === 'south' ? 2 : 1]] })
    }
    const queried = (database: string | undefined, value: number): CaseRun => ({
      ...runWith({}),
      toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT x', ...(database ? { database_id: database } : {}) }, ok: true, output: '', data: { sql: 'SELECT x', columns: ['x'], rows: [[value]], totalRows: 1 } }]
    })
    const [a, b, c] = await runEvaluation({
      cases: await loadTestCases(root),
      models: [A, B, ELSEWHERE],
      databases,
      ask: async (model) => (model.model === 'a' ? queried('south', 2) : model.model === 'b' ? queried(undefined, 1) : queried('south', 1))
    })
    expect(ran.sort()).toEqual(['north: SELECT 1', 'south: SELECT 1'])
    expect(a.results[0]).toMatchObject({ outcome: 'passed', databases: { expected: 'south', actual: 'south' }, verdict: 'passed: same rows in any order (the question asks for none); both ran on south' })
    expect(b.results[0]).toMatchObject({ outcome: 'passed', databases: { expected: 'north', actual: 'north' } })
    expect(c.results[0]).toMatchObject({ outcome: 'failed: wrong result', verdict: "failed: no answer column holds the values of expected column 1 (x): [2]; the answer's column holds [1]; both ran on south" })
  })

  it('reports progress with case i of n, model j of m, elapsed and an estimate', async () => {
    const root = projectWithTests({ '1.yml': 'name: a\nprompt: p\nsql: SELECT 1\n', '2.yml': 'name: b\nprompt: q\nsql: SELECT 1\n' })
    const seen: EvalProgress[] = []
    await runEvaluation({
      cases: await loadTestCases(root),
      models: [A, B],
      databases: fixedDatabase([[1]]),
      ask: async () => runWith({ sql: 'SELECT 1', rows: [[1]] }),
      onProgress: (progress) => seen.push(progress)
    })
    expect(seen.map((progress) => `${progress.caseIndex}/${progress.caseCount} ${progress.modelIndex}/${progress.modelCount} ${progress.result ? 'done' : 'start'}`)).toEqual([
      '1/2 1/2 start',
      '1/2 1/2 done',
      '2/2 1/2 start',
      '2/2 1/2 done',
      '1/2 2/2 start',
      '1/2 2/2 done',
      '2/2 2/2 start',
      '2/2 2/2 done'
    ])
    expect(seen[0].estimateLeftMs).toBeNull()
    expect(seen[1].estimateLeftMs).toEqual(expect.any(Number))
    expect(seen.every((progress) => progress.elapsedMs >= 0)).toBe(true)
  })

  it('stops a case at its time limit and classifies it as a timeout', async () => {
    const root = projectWithTests({ '1.yml': 'name: slow\nprompt: p\nsql: SELECT 1\n' })
    const [run] = await runEvaluation({
      cases: await loadTestCases(root),
      models: [A],
      timeoutMs: 30,
      databases: fixedDatabase([[1]]),
      ask: (model, testCase, signal) => new Promise((done) => signal.addEventListener('abort', () => done(runWith({ stopReason: 'cancelled' }))))
    })
    expect(run.results[0]).toMatchObject({ outcome: 'timeout', message: 'the case took longer than 0 s and was stopped' })
  })

  it('cancels: the running case is stopped and dropped, no further case starts', async () => {
    const root = projectWithTests({ '1.yml': 'name: a\nprompt: p\nsql: SELECT 1\n', '2.yml': 'name: b\nprompt: q\nsql: SELECT 1\n' })
    const stop = new AbortController()
    const asked: TestCase[] = []
    const [run] = await runEvaluation({
      cases: await loadTestCases(root),
      models: [A],
      signal: stop.signal,
      databases: fixedDatabase([[1]]),
      ask: (model, testCase, signal) => {
        asked.push(testCase)
        setTimeout(() => stop.abort(), 10)
        return new Promise((done) => signal.addEventListener('abort', () => done(runWith({ stopReason: 'cancelled' }))))
      }
    })
    expect(asked.map((testCase) => testCase.name)).toEqual(['a'])
    expect(run.results).toEqual([])
  })
})
