import type { EvaluationOutcome } from '../../shared/api'
import type { StopReason } from '../../shared/events'
import { compareResults, type Comparison, type ResultTable } from './compare'
import { lastSqlResult, type LastSqlResult } from './last-sql-result'
import { orderAskedBy } from './question-order'
import { orderByKeys, roundsNumbers } from './sql-shape'
import type { TestCase } from './test-cases'

// One case's outcome class from what the agent did and what the expected SQL returned. The order matters:
// a case that cannot be judged (broken expected SQL, no database to run it on, server failure) is the run's
// error, not the model's; a run the app had to stop (time limit, loop guard, round limit) says so even if it
// had queried; then the agent's last successful execute_sql is compared with each acceptable expected result.
// Every outcome carries a one-line verdict naming the rule that decided it and where each side ran.

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

/** The expected SQLs' results, in the case's order, and the database they ran on. */
export interface ExpectedResults {
  database: string
  results: ResultTable[]
}

export interface Classified {
  outcome: EvaluationOutcome
  message?: string
  /** One line: the outcome and the rule that decided it, and where each side ran. */
  verdict: string
  /** The deciding rule's id (see the README's verdict rules), or null for errors outside the comparison. */
  rule: string | null
  actual: unknown[][] | null
  sql: string | null
  /** 1-based: which acceptable SQL the answer matched. */
  matchedSql: number | null
  /** The expected rows shown beside the answer: the matched SQL's, else the first's. */
  expected: ResultTable | null
  databases: { expected: string | null; actual: string | null }
}

export interface ClassifyInput {
  testCase: TestCase
  expected: Settled<ExpectedResults>
  run: Settled<CaseRun>
  /** Where the agent's last query ran (its database id), when it ran one. */
  answerDatabase: string | null
  timedOut: boolean
  timeoutMs: number
}

export function classifyCase(input: ClassifyInput): Classified {
  const { run, expected, testCase } = input
  const databases = { expected: expected.ok ? expected.value.database : null, actual: input.answerDatabase }
  const base = { databases, matchedSql: null, expected: expected.ok ? (expected.value.results[0] ?? null) : null }
  const stopped = (outcome: EvaluationOutcome, message: string, seen: Pick<Classified, 'actual' | 'sql'>, rule: string | null = null): Classified => ({
    outcome,
    message,
    verdict: `${outcome}: ${message}${whereLine(databases)}`,
    rule,
    ...seen,
    ...base
  })
  if (!run.ok) return stopped('error: run', `the agent run failed: ${run.error}`, { actual: null, sql: null })
  let last: LastSqlResult | null = null
  let unreadable: string | null = null
  try {
    last = lastSqlResult(run.value.toolCalls)
  } catch (error) {
    unreadable = error instanceof Error ? error.message : String(error)
  }
  const seen = { actual: last ? last.rows : null, sql: last?.sql ?? lastSqlText(run.value.toolCalls) }
  if (input.timedOut) return stopped('timeout', `the case took longer than ${Math.round(input.timeoutMs / 1000)} s and was stopped`, seen)
  if (!expected.ok) return stopped('error: run', expected.error, seen, 'database-or-expected-sql')
  switch (run.value.stopReason) {
    case 'loop-guard':
      return stopped('error: loop guard', 'the agent repeated the same tool calls and was stopped by the loop guard', seen)
    case 'round-limit':
      return stopped('error: round limit', 'the agent reached the tool-round limit without answering', seen)
    case 'error':
    case null:
      return stopped('error: run', `the agent run failed: ${run.value.error ?? 'no answer'}`, seen)
    default:
      break
  }
  if (unreadable) return stopped('error: run', unreadable, seen)
  if (!last) {
    const failed = [...run.value.toolCalls].reverse().find((call) => call.name === 'execute_sql' && call.ok === false)
    if (failed) return stopped('error: tool', `every execute_sql failed; the last: ${firstLine(failed.output)}`, seen)
    return stopped('failed: no SQL', 'the agent ran no SQL query', seen, 'no-sql')
  }
  return judgeAnswer(testCase, expected.value, last, databases, seen)
}

/** Compares the answer with each acceptable SQL's result; the first that matches decides. */
export function judgeAnswer(testCase: TestCase, expected: ExpectedResults, answer: ResultTable, databases: Classified['databases'], seen: Pick<Classified, 'actual' | 'sql'>): Classified {
  const judged = expected.results.map((result, index) => ({ index, result, ...judgeOne(testCase, testCase.sql[index] ?? '', result, answer) }))
  const match = judged.find((item) => item.comparison.pass)
  const several = expected.results.length > 1
  if (match && match.comparison.pass) {
    const parts = [match.order.line, ...match.comparison.notes, ...(match.order.note ? [match.order.note] : [])]
    if (several) parts.push(`matched the ${ordinal(match.index + 1)} acceptable SQL`)
    return {
      outcome: 'passed',
      verdict: `passed: ${parts.join('; ')}${whereLine(databases)}`,
      rule: match.order.ordered ? 'rows-in-order' : 'rows-any-order',
      matchedSql: match.index + 1,
      expected: match.result,
      databases,
      ...seen
    }
  }
  const first = judged[0]
  const comparison = first.comparison as Extract<Comparison, { pass: false }>
  const why = failureContext(testCase, comparison, first.result, answer, first.order)
  const reason = `${comparison.reason}${why}`
  const message = several ? `matches none of the ${expected.results.length} acceptable SQLs; against the 1st: ${reason}` : reason
  return { outcome: 'failed: wrong result', message, verdict: `failed: ${message}${whereLine(databases)}`, rule: comparison.rule, matchedSql: null, expected: first.result, databases, ...seen }
}

interface OrderDecision {
  ordered: boolean
  /** "same rows in any order (the question asks for none)" */
  line: string
  /** Why order counts, for a failure's message. */
  because: string
  note: string | null
  keys: number[]
}

function judgeOne(testCase: TestCase, sql: string, expected: ResultTable, answer: ResultTable): { comparison: Comparison; order: OrderDecision } {
  const order = decideOrder(testCase, sql, expected)
  const comparison = compareResults(expected, answer, {
    ordered: order.ordered,
    orderKeys: order.keys,
    extraColumns: testCase.extraColumns,
    duplicates: testCase.duplicates,
    expectedRounds: roundsNumbers(sql)
  })
  return { comparison, order }
}

/** Row order counts when the case says `ordered: true`, or the question asks for an order and the expected SQL has one. */
function decideOrder(testCase: TestCase, sql: string, expected: ResultTable): OrderDecision {
  const keys = orderByKeys(sql, expected.columns)
  const asked = orderAskedBy(testCase.prompt)
  const unordered = (why: string): OrderDecision => ({ ordered: false, line: `same rows in any order (${why})`, because: '', note: null, keys: [] })
  if (testCase.ordered === false) return unordered('ordered: false')
  if (!asked && testCase.ordered !== true) return unordered(keys ? 'the expected SQL orders, but the question asks for none' : 'the question asks for none')
  const why = testCase.ordered === true ? 'ordered: true' : `the question asks “${asked}”`
  if (!keys) return unordered(`${why}, but the expected SQL has no ORDER BY to follow`)
  const note = keys.unresolved ? `ORDER BY ${keys.unresolved} is not a result column, so rows equal on the keys before it may come in any order` : null
  return { ordered: true, line: `same rows in the same order (${why})`, because: why, note, keys: keys.columns }
}

/** What the analyst needs beside a failure's reason: why order counted, or that duplicates could be allowed. */
function failureContext(testCase: TestCase, comparison: Extract<Comparison, { pass: false }>, expected: ResultTable, answer: ResultTable, order: OrderDecision): string {
  if (comparison.rule === 'row-order') return ` — order counts because ${order.because}; rows tying on the ORDER BY keys may swap`
  if (comparison.rule === 'row-count' && testCase.duplicates === 'count') {
    const asSets = compareResults(expected, answer, { ordered: false, orderKeys: [], extraColumns: testCase.extraColumns, duplicates: 'ignore', expectedRounds: false })
    if (asSets.pass) return ' — the same rows, but repeated a different number of times; duplicates count unless the case says duplicates: ignore'
  }
  return ''
}

function whereLine(databases: Classified['databases']): string {
  if (databases.expected && databases.expected === databases.actual) return `; both ran on ${databases.expected}`
  const parts = [databases.expected ? `expected SQL on ${databases.expected}` : null, databases.actual ? `answer on ${databases.actual}` : null].filter((part) => part !== null)
  return parts.length > 0 ? `; ${parts.join(', ')}` : ''
}

export function ordinal(position: number): string {
  const suffix = position % 100 >= 11 && position % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[position % 10] ?? 'th'
  return `${position}${suffix}`
}

function lastSqlText(calls: readonly CaseToolCall[]): string | null {
  const call = [...calls].reverse().find((candidate) => candidate.name === 'execute_sql' && typeof candidate.args.sql_query === 'string')
  return call ? String(call.args.sql_query) : null
}

function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? text
  return line.length > 300 ? line.slice(0, 299) + '…' : line
}
