import { statusOfOutcome, type ContextAudit, type EvaluationCaseResult } from '../../shared/api'
import { classifyCase, type CaseRun, type CaseToolCall, type Settled } from './classify-case'
import type { ResultTable } from './compare'
import { isBroken, type LoadedTestCase, type TestCase } from './test-cases'

// An evaluation: every case for every model. Cases of one server run one at a time (a local server serves
// one request well, not several); different servers run side by side. Each case's expected SQL runs once,
// while the first model works on it. The agent is injected (`ask`), so this file knows nothing of models
// or the store; the caller stores and pushes each result as it comes.

export interface EvalModel {
  endpoint: string
  model: string
}

/** Runs one case's prompt for one model in test mode; must stop the run when `signal` aborts. */
export type EvalAsk = (model: EvalModel, testCase: TestCase, signal: AbortSignal) => Promise<CaseRun>
/** Runs a case's expected SQL, on the database the case names (absent: the project's default one). */
export type EvalRunSql = (sql: string, database?: string) => Promise<ResultTable>
export type EvalAudit = (sql: string | null, calls: CaseToolCall[]) => Promise<ContextAudit | null>

export const DEFAULT_CASE_TIMEOUT_MS = 300_000

export interface EvalProgress {
  model: EvalModel
  modelIndex: number
  modelCount: number
  caseIndex: number
  caseCount: number
  testCase: LoadedTestCase
  elapsedMs: number
  estimateLeftMs: number | null
  result?: EvaluationCaseResult
}

export interface RunEvaluationOptions {
  cases: LoadedTestCase[]
  models: EvalModel[]
  ask: EvalAsk
  runSql: EvalRunSql
  /** Context audit of a case that did not pass. */
  audit?: EvalAudit
  onProgress?: (progress: EvalProgress) => void
  /** Cancels the evaluation: the running cases are stopped and not reported, the rest not started. */
  signal?: AbortSignal
  timeoutMs?: number
}

export interface ModelResults {
  model: EvalModel
  results: EvaluationCaseResult[]
}

export async function runEvaluation(options: RunEvaluationOptions): Promise<ModelResults[]> {
  const started = performance.now()
  const timeoutMs = options.timeoutMs ?? DEFAULT_CASE_TIMEOUT_MS
  const expected = new Map<string, Promise<Settled<ResultTable>>>()
  const expectedOf = (testCase: TestCase): Promise<Settled<ResultTable>> => {
    let pending = expected.get(testCase.file)
    if (!pending) expected.set(testCase.file, (pending = settle(options.runSql(testCase.sql, testCase.database))))
    return pending
  }
  const all = options.models.map((model) => ({ model, results: [] as EvaluationCaseResult[] }))
  // The estimate: mean time of a case so far, times what is left on the busiest server.
  const finished = { count: 0, ms: 0 }
  const left = new Map<string, number>()
  for (const { model } of all) left.set(model.endpoint, (left.get(model.endpoint) ?? 0) + options.cases.length)
  const estimate = (): number | null => (finished.count === 0 ? null : Math.round((finished.ms / finished.count) * Math.max(0, ...left.values())))

  const servers = [...new Set(options.models.map((model) => model.endpoint))]
  await Promise.all(
    servers.map(async (server) => {
      for (const [modelIndex, entry] of all.entries()) {
        if (entry.model.endpoint !== server) continue
        for (const [caseIndex, testCase] of options.cases.entries()) {
          if (options.signal?.aborted) return
          const progress = { model: entry.model, modelIndex: modelIndex + 1, modelCount: all.length, caseIndex: caseIndex + 1, caseCount: options.cases.length, testCase }
          options.onProgress?.({ ...progress, elapsedMs: Math.round(performance.now() - started), estimateLeftMs: estimate() })
          // The next case's expected query runs while the model works on this one.
          const next = options.cases[caseIndex + 1]
          if (next && !isBroken(next)) void expectedOf(next)
          const caseStarted = performance.now()
          const result = isBroken(testCase) ? brokenResult(testCase.file, testCase.name, testCase.error) : await runCase(entry.model, testCase, expectedOf(testCase), options, timeoutMs)
          if (!result) return // cancelled
          entry.results.push(result)
          finished.count++
          finished.ms += performance.now() - caseStarted
          left.set(server, (left.get(server) ?? 1) - 1)
          options.onProgress?.({ ...progress, elapsedMs: Math.round(performance.now() - started), estimateLeftMs: estimate(), result })
        }
      }
    })
  )
  return all
}

async function runCase(model: EvalModel, testCase: TestCase, expectedResult: Promise<Settled<ResultTable>>, options: RunEvaluationOptions, timeoutMs: number): Promise<EvaluationCaseResult | null> {
  const stop = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    stop.abort()
  }, timeoutMs)
  const cancel = (): void => stop.abort()
  options.signal?.addEventListener('abort', cancel)
  const started = performance.now()
  try {
    const run = await settle(options.ask(model, testCase, stop.signal))
    const ms = Math.round(performance.now() - started)
    if (options.signal?.aborted) return null
    const expected = await expectedResult
    const classified = classifyCase({ expectedSql: testCase.sql, file: testCase.file, expected, run, timedOut, timeoutMs })
    const value = run.ok ? run.value : null
    const audit = classified.outcome !== 'passed' && value && options.audit ? await options.audit(classified.sql, value.toolCalls).catch(() => null) : null
    return {
      file: testCase.file,
      name: testCase.name,
      status: statusOfOutcome(classified.outcome),
      outcome: classified.outcome,
      ...(classified.message ? { message: classified.message } : {}),
      expected: expected.ok ? jsonSafeRows(expected.value.rows) : null,
      actual: classified.actual ? jsonSafeRows(classified.actual) : null,
      sql: classified.sql,
      runId: value?.runId ?? null,
      ms,
      rounds: value?.rounds ?? 0,
      inputTokens: value?.inputTokens ?? 0,
      outputTokens: value?.outputTokens ?? 0,
      tokens: (value?.inputTokens ?? 0) + (value?.outputTokens ?? 0),
      firstTokenMs: value?.firstTokenMs ?? null,
      audit
    }
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', cancel)
  }
}

function brokenResult(file: string, name: string, message: string): EvaluationCaseResult {
  return {
    file,
    name,
    status: 'error',
    outcome: 'error: run',
    message,
    expected: null,
    actual: null,
    sql: null,
    runId: null,
    ms: 0,
    rounds: 0,
    inputTokens: 0,
    outputTokens: 0,
    tokens: 0,
    firstTokenMs: null,
    audit: null
  }
}

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
