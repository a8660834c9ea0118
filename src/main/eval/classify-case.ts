import type { EvaluationOutcome } from '../../shared/api'
import type { StopReason } from '../../shared/events'
import { compareResults, hasTopLevelOrderBy, type ResultTable } from './compare'
import { lastSqlResult } from './last-sql-result'

// One case's outcome class from what the agent did and what the expected SQL returned. The order matters:
// a case that cannot be judged (broken expected SQL, server failure) is the run's error, not the model's;
// a run the app had to stop (time limit, loop guard, round limit) says so even if it had queried; then the
// agent's last successful execute_sql is compared with the expected result.

export interface CaseToolCall {
  name: string
  args: Record<string, unknown>
  ok: boolean | null
  output: string
  data?: unknown
}

/** What one agent run did for a case. */
export interface CaseRun {
  runId: string | null
  stopReason: StopReason | null
  /** The run's own error (server down, unknown model …). */
  error?: string
  toolCalls: CaseToolCall[]
  rounds: number
  inputTokens: number
  outputTokens: number
  firstTokenMs: number | null
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: string }

export interface Classified {
  outcome: EvaluationOutcome
  message?: string
  actual: unknown[][] | null
  sql: string | null
}

export function classifyCase(input: { expectedSql: string; file: string; expected: Settled<ResultTable>; run: Settled<CaseRun>; timedOut: boolean; timeoutMs: number }): Classified {
  const { run, expected } = input
  if (!run.ok) return { outcome: 'error: run', message: `the agent run failed: ${run.error}`, actual: null, sql: null }
  let last: ReturnType<typeof lastSqlResult> = null
  let unreadable: string | null = null
  try {
    last = lastSqlResult(run.value.toolCalls)
  } catch (error) {
    unreadable = error instanceof Error ? error.message : String(error)
  }
  const seen = { actual: last ? last.rows : null, sql: last?.sql ?? lastSqlText(run.value.toolCalls) }
  if (input.timedOut) return { outcome: 'timeout', message: `the case took longer than ${Math.round(input.timeoutMs / 1000)} s and was stopped`, ...seen }
  if (!expected.ok) return { outcome: 'error: run', message: `the expected SQL of ${input.file} failed: ${expected.error}`, ...seen }
  switch (run.value.stopReason) {
    case 'loop-guard':
      return { outcome: 'error: loop guard', message: 'the agent repeated the same tool calls and was stopped by the loop guard', ...seen }
    case 'round-limit':
      return { outcome: 'error: round limit', message: 'the agent reached the tool-round limit without answering', ...seen }
    case 'error':
    case null:
      return { outcome: 'error: run', message: `the agent run failed: ${run.value.error ?? 'no answer'}`, ...seen }
    default:
      break
  }
  if (unreadable) return { outcome: 'error: run', message: unreadable, ...seen }
  if (!last) {
    const failed = [...run.value.toolCalls].reverse().find((call) => call.name === 'execute_sql' && call.ok === false)
    if (failed) return { outcome: 'error: tool', message: `every execute_sql failed; the last: ${firstLine(failed.output)}`, ...seen }
    return { outcome: 'failed: no SQL', message: 'the agent ran no SQL query', ...seen }
  }
  const comparison = compareResults(expected.value, last, { ordered: hasTopLevelOrderBy(input.expectedSql) })
  return comparison.pass ? { outcome: 'passed', ...seen } : { outcome: 'failed: wrong result', message: comparison.reason, ...seen }
}

function lastSqlText(calls: readonly CaseToolCall[]): string | null {
  const call = [...calls].reverse().find((candidate) => candidate.name === 'execute_sql' && typeof candidate.args.sql_query === 'string')
  return call ? String(call.args.sql_query) : null
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? text
  return line.length > 300 ? line.slice(0, 299) + '…' : line
}
