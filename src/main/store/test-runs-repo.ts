import { z } from 'zod'
import type { TestCaseResult, TestReport } from '../../shared/api'
import type { StoreContext } from './context'
import { StoreNotFoundError } from './errors'
import { integer, jsonOrNull, text, textOrNull, toJson, toRow } from './row'

const statusSchema = z.enum(['passed', 'failed', 'error'])
const table = z.array(z.array(z.unknown()))

function toResult(value: unknown): TestCaseResult {
  const row = toRow(value)
  const message = textOrNull(row, 'message')
  return {
    name: text(row, 'name'),
    status: statusSchema.parse(text(row, 'status')),
    expected: jsonOrNull(row, 'expected_json', table),
    actual: jsonOrNull(row, 'actual_json', table),
    sql: textOrNull(row, 'sql'),
    runId: textOrNull(row, 'run_id'),
    ms: integer(row, 'ms'),
    tokens: integer(row, 'tokens'),
    ...(message === null ? {} : { message })
  }
}

/** Evaluation runs (`tests/*.yml`): one test run holds one result per case. */
export class TestRunsRepo {
  constructor(private readonly context: StoreContext) {}

  start(projectId: number): string {
    const id = this.context.newId()
    this.context.write(() =>
      this.context
        .statement(`INSERT INTO test_runs (id, project_id, started_at) VALUES (?, ?, ?)`)
        .run(id, projectId, this.context.now())
    )
    return id
  }

  addResult(testRunId: string, result: TestCaseResult): void {
    this.context.write(() =>
      this.context
        .statement(
          `INSERT INTO test_results (test_run_id, name, status, expected_json, actual_json, sql, run_id, ms, tokens, message)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
        )
        .run(
          testRunId,
          result.name,
          result.status,
          result.expected === null ? null : toJson(result.expected),
          result.actual === null ? null : toJson(result.actual),
          result.sql,
          result.runId,
          result.ms,
          result.tokens,
          result.message ?? null
        )
    )
  }

  finish(testRunId: string): void {
    this.context.write(() => {
      const result = this.context
        .statement(`UPDATE test_runs SET ended_at = ? WHERE id = ?`)
        .run(this.context.now(), testRunId)
      if (result.changes === 0) throw new StoreNotFoundError('test run', testRunId)
    })
  }

  report(testRunId: string): TestReport {
    const cases = this.context
      .read(() =>
        this.context.statement(`SELECT * FROM test_results WHERE test_run_id = ? ORDER BY id`).all(testRunId)
      )
      .map(toResult)
    return {
      passed: cases.filter((item) => item.status === 'passed').length,
      failed: cases.filter((item) => item.status === 'failed').length,
      errored: cases.filter((item) => item.status === 'error').length,
      cases
    }
  }

  /** The id of the project's most recent test run, if any. */
  latest(projectId: number): string | null {
    const value: unknown = this.context.read(() =>
      this.context
        .statement(`SELECT id FROM test_runs WHERE project_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1`)
        .pluck()
        .get(projectId)
    )
    return typeof value === 'string' ? value : null
  }
}
