import type { TestCaseResult, TestReport } from '../../shared/api'
import { compareResults, hasTopLevelOrderBy, type ResultTable } from './compare'
import { isBroken, loadTestCases, type LoadedTestCase, type TestCase } from './test-cases'

// Test mode evaluation: each case's prompt goes to the agent (injected, so this file knows nothing of
// models), its last execute_sql result is compared with the expected SQL's result, and one result per
// case is reported as soon as it is known. Cases run one after another: a local model serves one at a time.

export interface AgentAnswer {
  runId: string | null
  /** The result of the agent's final execute_sql, or null when it ran none. */
  lastSql: (ResultTable & { sql: string }) | null
  tokens: number
}

export type EvalAsk = (prompt: string, testCase: TestCase) => Promise<AgentAnswer>
export type EvalRunSql = (sql: string) => Promise<ResultTable>

export interface RunEvaluationOptions {
  root: string
  /** Cases to run; default: every tests/*.yml of the project. */
  cases?: LoadedTestCase[]
  /** Only the cases with these names. */
  names?: string[]
  ask: EvalAsk
  runSql: EvalRunSql
  onResult?: (result: TestCaseResult) => void
  /** Stops before the next case (the running one finishes: cancel its run through `ask` if needed). */
  signal?: AbortSignal
}

export async function runEvaluation(options: RunEvaluationOptions): Promise<TestReport> {
  const all = options.cases ?? (await loadTestCases(options.root))
  const cases = options.names ? all.filter((testCase) => options.names?.includes(testCase.name)) : all
  const report: TestReport = { passed: 0, failed: 0, errored: 0, cases: [] }
  for (const testCase of cases) {
    if (options.signal?.aborted) break
    const result = isBroken(testCase) ? brokenResult(testCase.name, testCase.error) : await runCase(testCase, options)
    report.cases.push(result)
    if (result.status === 'passed') report.passed++
    else if (result.status === 'failed') report.failed++
    else report.errored++
    options.onResult?.(result)
  }
  return report
}

async function runCase(testCase: TestCase, options: RunEvaluationOptions): Promise<TestCaseResult> {
  const started = performance.now()
  // The expected query runs while the model works, so it adds nothing to the case's time.
  const [expected, answer] = await Promise.all([settle(options.runSql(testCase.sql)), settle(options.ask(testCase.prompt, testCase))])
  const ms = Math.round(performance.now() - started)
  const base = {
    name: testCase.name,
    expected: expected.ok ? jsonSafeRows(expected.value.rows) : null,
    actual: answer.ok && answer.value.lastSql ? jsonSafeRows(answer.value.lastSql.rows) : null,
    sql: answer.ok ? (answer.value.lastSql?.sql ?? null) : null,
    runId: answer.ok ? answer.value.runId : null,
    tokens: answer.ok ? answer.value.tokens : 0,
    ms
  }
  if (!expected.ok) return { ...base, status: 'error', message: `the expected SQL of ${testCase.file} failed: ${expected.error}` }
  if (!answer.ok) return { ...base, status: 'error', message: `the agent run failed: ${answer.error}` }
  const lastSql = answer.value.lastSql
  if (!lastSql) return { ...base, status: 'failed', message: 'the agent ran no SQL query' }
  const comparison = compareResults(expected.value, lastSql, { ordered: hasTopLevelOrderBy(testCase.sql) })
  return comparison.pass ? { ...base, status: 'passed' } : { ...base, status: 'failed', message: comparison.reason }
}

function brokenResult(name: string, message: string): TestCaseResult {
  return { name, status: 'error', expected: null, actual: null, sql: null, runId: null, ms: 0, tokens: 0, message }
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: string }

async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await promise }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message.split('\n')[0] : String(error) }
  }
}

/** Rows as JSON can carry them (the report goes over IPC and to `test --json`): bigints become numbers or text. */
function jsonSafeRows(rows: unknown[][]): unknown[][] {
  return rows.map((row) =>
    row.map((cell) => {
      if (typeof cell === 'bigint') return Number.isSafeInteger(Number(cell)) ? Number(cell) : cell.toString()
      if (cell instanceof Date) return cell.toISOString()
      return cell
    })
  )
}
