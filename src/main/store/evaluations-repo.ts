import { hash } from 'node:crypto'
import * as z from '../../shared/zod-mini'
import { EVALUATION_OUTCOMES, statusOfOutcome, type EvaluationCaseResult, type EvaluationModelRun, type EvaluationSummary } from '../../shared/api'
import type { StoreContext } from './context'
import { StoreNotFoundError } from './errors'
import { integer, integerOrNull, jsonOrNull, text, textOrNull, toJson, toRow } from './row'

// Evaluations: a suite run across several models. One row per evaluation, one per model in it (with the
// system prompt that model was given) and one per case and model. Re-running a cell replaces that row.

const outcomeSchema = z.enum(EVALUATION_OUTCOMES)
const statusSchema = z.enum(['running', 'done', 'cancelled'])
const table = z.array(z.array(z.unknown()))
const auditSchema = z.object({
  filesRead: z.array(z.string()),
  tables: z.array(z.object({ table: z.string(), dir: z.nullable(z.string()), unread: z.array(z.string()) }))
})

export function promptHash(systemPrompt: string): string {
  return hash('sha256', systemPrompt, 'hex').slice(0, 16)
}

function toCase(value: unknown): EvaluationCaseResult {
  const row = toRow(value)
  const outcome = outcomeSchema.parse(text(row, 'outcome'))
  const message = textOrNull(row, 'message')
  const firstToken = row.first_token_ms
  const verdict = textOrNull(row, 'verdict')
  const rule = textOrNull(row, 'rule')
  const expectedDatabase = textOrNull(row, 'expected_database')
  const actualDatabase = textOrNull(row, 'actual_database')
  const matchedSql = integerOrNull(row, 'matched_sql')
  const category = textOrNull(row, 'category')
  const inputTokens = integer(row, 'input_tokens')
  const outputTokens = integer(row, 'output_tokens')
  return {
    file: text(row, 'file'),
    name: text(row, 'name'),
    status: statusOfOutcome(outcome),
    outcome,
    expected: jsonOrNull(row, 'expected_json', table),
    actual: jsonOrNull(row, 'actual_json', table),
    sql: textOrNull(row, 'sql'),
    runId: textOrNull(row, 'run_id'),
    ms: Number(row.ms),
    tokens: inputTokens + outputTokens,
    inputTokens,
    outputTokens,
    rounds: integer(row, 'rounds'),
    firstTokenMs: typeof firstToken === 'number' ? firstToken : null,
    audit: jsonOrNull(row, 'audit_json', auditSchema),
    ...(message === null ? {} : { message }),
    // Cases stored before verdicts were recorded have none: they are left out rather than made up.
    ...(verdict === null ? {} : { verdict, rule }),
    ...(expectedDatabase === null && actualDatabase === null ? {} : { databases: { expected: expectedDatabase, actual: actualDatabase } }),
    ...(matchedSql === null ? {} : { matchedSql }),
    ...(category === null ? {} : { category })
  }
}

export interface EvaluationModelRecord {
  id: number
  model: string
  endpoint: string
}

export class EvaluationsRepo {
  constructor(private readonly context: StoreContext) {}

  start(projectId: number): string {
    const id = this.context.newId()
    this.context.write(() =>
      this.context
        .statement(`INSERT INTO evaluations (id, project_id, status, started_at) VALUES (?, ?, 'running', ?)`)
        .run(id, projectId, this.context.now())
    )
    return id
  }

  /** Marks a finished evaluation as running again (a cell or column is re-run into it). */
  reopen(evaluationId: string): void {
    this.context.write(() => {
      const result = this.context.statement(`UPDATE evaluations SET status = 'running', ended_at = NULL WHERE id = ?`).run(evaluationId)
      if (result.changes === 0) throw new StoreNotFoundError('evaluation', evaluationId)
    })
  }

  finish(evaluationId: string, status: 'done' | 'cancelled'): void {
    this.context.write(() => {
      const result = this.context
        .statement(`UPDATE evaluations SET status = ?, ended_at = ? WHERE id = ?`)
        .run(status, this.context.now(), evaluationId)
      if (result.changes === 0) throw new StoreNotFoundError('evaluation', evaluationId)
    })
  }

  /** The model's row in the evaluation (created on first use); its system prompt is the latest one it was given. */
  addModel(evaluationId: string, input: { model: string; endpoint: string; systemPrompt: string }): EvaluationModelRecord {
    return this.context.write(() => {
      const position = this.context.statement(`SELECT count(*) FROM evaluation_models WHERE evaluation_id = ?`).pluck().get(evaluationId)
      this.context
        .statement(
          `INSERT INTO evaluation_models (evaluation_id, position, model, endpoint, system_prompt_hash, system_prompt)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (evaluation_id, endpoint, model) DO UPDATE SET
             system_prompt_hash = excluded.system_prompt_hash, system_prompt = excluded.system_prompt`
        )
        .run(evaluationId, Number(position), input.model, input.endpoint, promptHash(input.systemPrompt), input.systemPrompt)
      const id = this.context
        .statement(`SELECT id FROM evaluation_models WHERE evaluation_id = ? AND endpoint = ? AND model = ?`)
        .pluck()
        .get(evaluationId, input.endpoint, input.model)
      return { id: Number(id), model: input.model, endpoint: input.endpoint }
    })
  }

  /** Stores a case's result for one model, replacing an earlier one of the same case. */
  putCase(evaluationModelId: number, result: EvaluationCaseResult): void {
    this.context.write(() =>
      this.context
        .statement(
          `INSERT INTO evaluation_cases (evaluation_model_id, file, name, outcome, message, expected_json, actual_json, sql,
             rounds, input_tokens, output_tokens, first_token_ms, ms, run_id, audit_json,
             verdict, rule, expected_database, actual_database, matched_sql, category)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (evaluation_model_id, file) DO UPDATE SET
             name = excluded.name, outcome = excluded.outcome, message = excluded.message,
             expected_json = excluded.expected_json, actual_json = excluded.actual_json, sql = excluded.sql,
             rounds = excluded.rounds, input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
             first_token_ms = excluded.first_token_ms, ms = excluded.ms, run_id = excluded.run_id, audit_json = excluded.audit_json,
             verdict = excluded.verdict, rule = excluded.rule, expected_database = excluded.expected_database,
             actual_database = excluded.actual_database, matched_sql = excluded.matched_sql, category = excluded.category`
        )
        .run(
          evaluationModelId,
          result.file,
          result.name,
          result.outcome,
          result.message ?? null,
          result.expected === null ? null : toJson(result.expected),
          result.actual === null ? null : toJson(result.actual),
          result.sql,
          result.rounds,
          result.inputTokens,
          result.outputTokens,
          result.firstTokenMs,
          result.ms,
          result.runId,
          result.audit === null ? null : toJson(result.audit),
          result.verdict ?? null,
          result.rule ?? null,
          result.databases?.expected ?? null,
          result.databases?.actual ?? null,
          result.matchedSql ?? null,
          result.category ?? null
        )
    )
  }

  projectOf(evaluationId: string): number {
    const value = this.context.read(() => this.context.statement(`SELECT project_id FROM evaluations WHERE id = ?`).pluck().get(evaluationId))
    if (value === undefined) throw new StoreNotFoundError('evaluation', evaluationId)
    return Number(value)
  }

  /** The project's evaluations, newest first. */
  list(projectId: number, limit = 100): EvaluationSummary[] {
    const ids = this.context.read(() =>
      this.context
        .statement(`SELECT id FROM evaluations WHERE project_id = ? ORDER BY started_at DESC, rowid DESC LIMIT ?`)
        .pluck()
        .all(projectId, limit)
    )
    return ids.map((id) => this.summary(String(id)))
  }

  summary(evaluationId: string): EvaluationSummary {
    return this.context.read(() => {
      const row = this.context.statement(`SELECT * FROM evaluations WHERE id = ?`).get(evaluationId)
      if (row === undefined) throw new StoreNotFoundError('evaluation', evaluationId)
      const evaluation = toRow(row)
      const models = this.context
        .statement(
          `SELECT m.model, m.endpoint, m.system_prompt_hash,
             (SELECT count(*) FROM evaluation_cases c WHERE c.evaluation_model_id = m.id AND c.outcome = 'passed') AS passed,
             (SELECT count(*) FROM evaluation_cases c WHERE c.evaluation_model_id = m.id) AS total
           FROM evaluation_models m WHERE m.evaluation_id = ? ORDER BY m.position`
        )
        .all(evaluationId)
        .map((value) => {
          const model = toRow(value)
          return {
            model: text(model, 'model'),
            endpoint: text(model, 'endpoint'),
            passed: integer(model, 'passed'),
            total: integer(model, 'total'),
            systemPromptHash: text(model, 'system_prompt_hash')
          }
        })
      return {
        id: text(evaluation, 'id'),
        status: statusSchema.parse(text(evaluation, 'status')),
        startedAt: text(evaluation, 'started_at'),
        endedAt: textOrNull(evaluation, 'ended_at'),
        models
      }
    })
  }

  /** Each model's run with its cases (in file order). */
  runs(evaluationId: string): EvaluationModelRun[] {
    return this.context.read(() =>
      this.context
        .statement(`SELECT * FROM evaluation_models WHERE evaluation_id = ? ORDER BY position`)
        .all(evaluationId)
        .map((value) => {
          const row = toRow(value)
          const cases = this.context
            .statement(`SELECT * FROM evaluation_cases WHERE evaluation_model_id = ? ORDER BY file`)
            .all(integer(row, 'id'))
            .map(toCase)
          return {
            model: text(row, 'model'),
            endpoint: text(row, 'endpoint'),
            systemPromptHash: text(row, 'system_prompt_hash'),
            systemPrompt: text(row, 'system_prompt'),
            passed: cases.filter((item) => item.status === 'passed').length,
            failed: cases.filter((item) => item.status === 'failed').length,
            errored: cases.filter((item) => item.status === 'error').length,
            cases
          }
        })
    )
  }
}
