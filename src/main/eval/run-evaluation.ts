import { statusOfOutcome, type ContextAudit, type EvaluationCaseResult } from '../../shared/api'
import { classifyCase, ordinal, type CaseRun, type CaseToolCall, type ExpectedResults, type Settled } from './classify-case'
import type { ResultTable } from './compare'
import { lastSqlDatabase } from './last-sql-result'
import { isBroken, type LoadedTestCase, type TestCase } from './test-cases'

// An evaluation: every case for every model. Cases of one server run one at a time (a local server serves
// one request well, not several); different servers run side by side. A case's expected SQL runs on the
// database the case names, else where the agent's last query ran, else on the project's only database;
// each (case, database) runs once, and when the database is known beforehand it runs while the model works
// on the case before. The agent and the databases are injected, so this file knows nothing of models, engines
// or the store; the caller stores and pushes each result as it comes.

export interface EvalModel {
  endpoint: string
  model: string
}

/** Runs one case's prompt for one model in test mode; must stop the run when `signal` aborts. */
export type EvalAsk = (model: EvalModel, testCase: TestCase, signal: AbortSignal) => Promise<CaseRun>

/** The project's databases as the evaluation sees them. */
export interface EvalDatabases {
  /** Every database's id (what execute_sql's database_id and a case's `database:` name), in declaration order. */
  names: readonly string[]
  /** The id of the database a name stands for (undefined: the one execute_sql uses without database_id); throws with the choices. */
  resolve: (name: string | undefined) => string
  run: (database: string, sql: string) => Promise<ResultTable>
}
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
  databases: EvalDatabases
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
  const expected = new Map<string, Promise<Settled<ExpectedResults>>>()
  const expectedOn = (testCase: TestCase, database: Settled<string>): Promise<Settled<ExpectedResults>> => {
    if (!database.ok) return Promise.resolve(database)
    const key = `${database.value}\n${testCase.file}`
    let pending = expected.get(key)
    if (!pending) expected.set(key, (pending = runExpected(options.databases, testCase, database.value)))
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
          const nextDatabase = next && !isBroken(next) ? databaseBeforehand(next, options.databases) : null
          if (next && !isBroken(next) && nextDatabase) void expectedOn(next, nextDatabase)
          const caseStarted = performance.now()
          const result = isBroken(testCase) ? brokenResult(testCase.file, testCase.name, testCase.error) : await runCase(entry.model, testCase, expectedOn, options, timeoutMs)
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

type ExpectedOn = (testCase: TestCase, database: Settled<string>) => Promise<Settled<ExpectedResults>>

async function runCase(model: EvalModel, testCase: TestCase, expectedOn: ExpectedOn, options: RunEvaluationOptions, timeoutMs: number): Promise<EvaluationCaseResult | null> {
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
    const answered = run.ok ? lastSqlDatabase(run.value.toolCalls) : null
    const answerDatabase = answered === null ? null : resolveOrKeep(options.databases, answered)
    const expected = await expectedOn(testCase, expectedDatabase(testCase, answered, options.databases))
    const classified = classifyCase({ testCase, expected, run, answerDatabase, timedOut, timeoutMs })
    const value = run.ok ? run.value : null
    const audit = classified.outcome !== 'passed' && value && options.audit ? await options.audit(classified.sql, value.toolCalls).catch(() => null) : null
    return {
      file: testCase.file,
      name: testCase.name,
      status: statusOfOutcome(classified.outcome),
      outcome: classified.outcome,
      ...(classified.message ? { message: classified.message } : {}),
      verdict: classified.verdict,
      rule: classified.rule,
      databases: classified.databases,
      matchedSql: classified.matchedSql,
      category: testCase.category ?? null,
      expected: classified.expected ? jsonSafeRows(classified.expected.rows) : null,
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

/** The case's database when it is known before the agent runs: the one it names, or the project's only one. */
function databaseBeforehand(testCase: TestCase, databases: EvalDatabases): Settled<string> | null {
  if (testCase.database !== undefined || databases.names.length === 1) return expectedDatabase(testCase, null, databases)
  return null
}

/**
 * Where the expected SQL runs: the database the case names; else where the agent's last query ran (`answered`:
 * its database id, undefined for the default one; null when it ran none); else the project's only database.
 */
export function expectedDatabase(testCase: TestCase, answered: string | undefined | null, databases: EvalDatabases): Settled<string> {
  const choices = databases.names.join(', ')
  if (testCase.database !== undefined) {
    try {
      return { ok: true, value: databases.resolve(testCase.database) }
    } catch {
      return { ok: false, error: `${testCase.file}: database "${testCase.database}" is not one of this project's databases (${choices || 'none'})` }
    }
  }
  if (answered !== null) {
    try {
      return { ok: true, value: databases.resolve(answered) }
    } catch (error) {
      return { ok: false, error: `${testCase.file}: the agent's last query ran on a database the expected SQL cannot follow (${messageOf(error)}); add database: with one of ${choices}` }
    }
  }
  if (databases.names.length === 1) return { ok: true, value: databases.names[0] }
  if (databases.names.length === 0) return { ok: false, error: `${testCase.file}: this project has no database to run the expected SQL on` }
  return { ok: false, error: `${testCase.file} names no database and the agent ran no query to follow; add database: with one of ${choices}` }
}

function resolveOrKeep(databases: EvalDatabases, name: string | undefined): string | null {
  try {
    return databases.resolve(name)
  } catch {
    return name ?? null
  }
}

async function runExpected(databases: EvalDatabases, testCase: TestCase, database: string): Promise<Settled<ExpectedResults>> {
  const results: ResultTable[] = []
  for (const [index, sql] of testCase.sql.entries()) {
    const result = await settle(databases.run(database, sql))
    if (!result.ok) {
      const which = testCase.sql.length > 1 ? `the ${ordinal(index + 1)} expected SQL` : 'the expected SQL'
      return { ok: false, error: `${which} of ${testCase.file} failed on ${database}: ${result.error}` }
    }
    results.push(result.value)
  }
  return { ok: true, value: { database, results } }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] : String(error)
}

function brokenResult(file: string, name: string, message: string): EvaluationCaseResult {
  return {
    file,
    name,
    status: 'error',
    outcome: 'error: run',
    message,
    verdict: `error: run: ${message}`,
    rule: 'case-file',
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
    return { ok: false, error: messageOf(error) }
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
