import * as z from '../../shared/zod-mini'
import { once } from '../../shared/once'
import type { RunDetail, RunRequestView, ToolCallView } from '../../shared/api'
import type { PromptPreview } from '../../shared/prompt'
import type { StoreContext } from './context'
import { StoreNotFoundError } from './errors'
import { promptPreviewParts } from './prompt-preview-schema'
import {
  bit,
  flag,
  flagOrNull,
  integer,
  integerOrNull,
  json,
  jsonOrNull,
  text,
  textOrNull,
  toJson,
  toRow,
  type Row
} from './row'

export type RunStatus = 'running' | 'done' | 'failed' | 'cancelled'

export interface NewRun {
  chatId: string
  model: string
  endpoint: string
  testMode: boolean
}

/** How a run ended, as the store records it. */
export interface RunEnding {
  status: Exclude<RunStatus, 'running'>
  stopReason?: string | null
  error?: string | null
  usage?: { inputTokens: number; outputTokens: number } | null
  /** The model the server reported answering (null: it never said). */
  servedModel?: string | null
}

export interface RunRecord {
  id: string
  chatId: string
  model: string
  endpoint: string
  testMode: boolean
  status: RunStatus
  stopReason: string | null
  error: string | null
  usage: { inputTokens: number; outputTokens: number } | null
  servedModel: string | null
  startedAt: string
  endedAt: string | null
}

// Made when a run is first read: opening the store (as every command does) reads none.
const runStatus = once(() => z.enum(['running', 'done', 'failed', 'cancelled']))
const toolArgs = once(() => z.record(z.string(), z.unknown()))

function toRun(value: unknown): RunRecord {
  const row = toRow(value)
  const inputTokens = integerOrNull(row, 'input_tokens')
  const outputTokens = integerOrNull(row, 'output_tokens')
  return {
    id: text(row, 'id'),
    chatId: text(row, 'chat_id'),
    model: text(row, 'model'),
    endpoint: text(row, 'endpoint'),
    testMode: flag(row, 'test_mode'),
    status: runStatus().parse(text(row, 'status')),
    stopReason: textOrNull(row, 'stop_reason'),
    error: textOrNull(row, 'error'),
    usage: inputTokens === null || outputTokens === null ? null : { inputTokens, outputTokens },
    servedModel: textOrNull(row, 'served_model'),
    startedAt: text(row, 'started_at'),
    endedAt: textOrNull(row, 'ended_at')
  }
}

export function toToolCall(row: Row): ToolCallView {
  const data = jsonOrNull(row, 'data_json', z.unknown())
  return {
    callId: text(row, 'call_id'),
    name: text(row, 'name'),
    args: json(row, 'args_json', toolArgs()),
    ok: flagOrNull(row, 'ok'),
    output: text(row, 'output'),
    ...(data === null ? {} : { data })
  }
}

/** What an interrupted run's answer says when nothing had streamed yet. */
export const INTERRUPTED_MESSAGE = 'Interrupted: Glassbox stopped (it was closed or killed) before this answer finished. Send the question again.'

/** Runs this process started and has not finished: another store handle in the same process must not mark them. */
const liveRuns = new Set<string>()

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else — alive all the same.
    return error instanceof Error && 'code' in error && error.code === 'EPERM'
  }
}

export class RunsRepo {
  constructor(private readonly context: StoreContext) {}

  start(run: NewRun): RunRecord {
    const id = this.context.newId()
    this.context.write(() =>
      this.context
        .statement(
          `INSERT INTO runs (id, chat_id, model, endpoint, test_mode, status, started_at, owner_pid)
           VALUES (?, ?, ?, ?, ?, 'running', ?, ?)`
        )
        .run(id, run.chatId, run.model, run.endpoint, bit(run.testMode), this.context.now(), process.pid)
    )
    liveRuns.add(id)
    return this.getRecord(id)
  }

  /** When the model's first output arrived (once per run; later calls keep the first time). */
  markFirstToken(runId: string): void {
    this.context.write(() =>
      this.context
        .statement(`UPDATE runs SET first_token_at = coalesce(first_token_at, ?) WHERE id = ?`)
        .run(this.context.now(), runId)
    )
  }

  /**
   * Marks runs left 'running' by a process that is gone (killed mid-way, crashed) as failed with stop reason
   * 'interrupted', and their 'streaming' answers as failed (an empty one says what happened). Runs of a
   * process that is still alive — another window or the CLI on the same store — are left alone.
   * Returns the ids it marked.
   */
  markInterrupted(isAlive: (pid: number) => boolean = isProcessAlive): string[] {
    return this.context.write(() => {
      const running = this.context.statement(`SELECT id, owner_pid FROM runs WHERE status = 'running'`).all().map(toRow)
      const orphaned = running
        .map((row) => ({ id: text(row, 'id'), pid: integerOrNull(row, 'owner_pid') }))
        .filter(({ id, pid }) => (pid === process.pid ? !liveRuns.has(id) : pid === null || !isAlive(pid)))
        .map(({ id }) => id)
      if (orphaned.length === 0) return orphaned
      const now = this.context.now()
      for (const id of orphaned) {
        this.context
          .statement(`UPDATE runs SET status = 'failed', stop_reason = 'interrupted', error = ?, ended_at = ? WHERE id = ? AND status = 'running'`)
          .run(INTERRUPTED_MESSAGE, now, id)
        this.context
          .statement(`UPDATE messages SET status = 'failed', text = CASE WHEN text = '' THEN ? ELSE text END WHERE run_id = ? AND status = 'streaming'`)
          .run(INTERRUPTED_MESSAGE, id)
      }
      return orphaned
    })
  }

  finish(runId: string, outcome: RunEnding): RunRecord {
    this.context.write(() => {
      const result = this.context
        .statement(
          `UPDATE runs SET status = ?, stop_reason = ?, error = ?, input_tokens = ?, output_tokens = ?, ended_at = ?,
             served_model = coalesce(?, served_model)
           WHERE id = ?`
        )
        .run(
          outcome.status,
          outcome.stopReason ?? null,
          outcome.error ?? null,
          outcome.usage?.inputTokens ?? null,
          outcome.usage?.outputTokens ?? null,
          this.context.now(),
          outcome.servedModel ?? null,
          runId
        )
      if (result.changes === 0) throw new StoreNotFoundError('run', runId)
    })
    liveRuns.delete(runId)
    return this.getRecord(runId)
  }

  getRecord(runId: string): RunRecord {
    const row = this.context.read(() => this.context.statement(`SELECT * FROM runs WHERE id = ?`).get(runId))
    if (row === undefined) throw new StoreNotFoundError('run', runId)
    return toRun(row)
  }

  /** The run as the inspector shows it, with the exact prompt that was sent (null before it was saved). */
  get(runId: string): RunDetail {
    const run = this.getRecord(runId)
    return {
      id: run.id,
      chatId: run.chatId,
      model: run.model,
      endpoint: run.endpoint,
      testMode: run.testMode,
      status: run.status,
      stopReason: run.stopReason,
      usage: run.usage,
      servedModel: run.servedModel,
      prompt: this.loadPrompt(runId),
      startedAt: run.startedAt,
      requests: this.requests(runId)
    }
  }

  /** Records the next request of a run exactly as it was sent; returns its round number (1, 2, …). */
  saveRequest(runId: string, request: { url: string; body: string }): number {
    return this.context.write(() => {
      const row = toRow(
        this.context.statement(`SELECT coalesce(max(round), 0) + 1 AS round FROM run_requests WHERE run_id = ?`).get(runId)
      )
      const round = integer(row, 'round')
      this.context
        .statement(`INSERT INTO run_requests (run_id, round, url, body, sent_at) VALUES (?, ?, ?, ?, ?)`)
        .run(runId, round, request.url, request.body, this.context.now())
      return round
    })
  }

  /** What the server reported for the run's latest request: its token counts and the model that answered. */
  saveRoundUsage(runId: string, usage: { inputTokens: number; outputTokens: number }, servedModel: string | null): void {
    this.context.write(() =>
      this.context
        .statement(
          `UPDATE run_requests SET input_tokens = ?, output_tokens = ?, served_model = ?
           WHERE run_id = ? AND round = (SELECT max(round) FROM run_requests WHERE run_id = ?)`
        )
        .run(usage.inputTokens, usage.outputTokens, servedModel, runId, runId)
    )
  }

  /** Every request of a run, in the order they were sent. */
  requests(runId: string): RunRequestView[] {
    return this.context
      .read(() => this.context.statement(`SELECT * FROM run_requests WHERE run_id = ? ORDER BY round`).all(runId))
      .map((value) => {
        const row = toRow(value)
        const inputTokens = integerOrNull(row, 'input_tokens')
        const outputTokens = integerOrNull(row, 'output_tokens')
        const servedModel = textOrNull(row, 'served_model')
        return {
          round: integer(row, 'round'),
          url: text(row, 'url'),
          body: text(row, 'body'),
          sentAt: text(row, 'sent_at'),
          ...(inputTokens !== null && outputTokens !== null ? { usage: { inputTokens, outputTokens } } : {}),
          ...(servedModel === null ? {} : { servedModel })
        }
      })
  }

  /** Records a tool call when it starts (`ok` stays null until finishToolCall). */
  startToolCall(runId: string, call: { callId: string; name: string; args: Record<string, unknown> }): void {
    this.context.write(() =>
      this.context
        .statement(`INSERT INTO tool_calls (run_id, call_id, name, args_json, created_at) VALUES (?, ?, ?, ?, ?)`)
        .run(runId, call.callId, call.name, toJson(call.args), this.context.now())
    )
  }

  /** Completes the latest unfinished call with this id (ids repeat across rounds on some servers). */
  finishToolCall(runId: string, callId: string, result: { ok: boolean; output: string; data?: unknown }): void {
    this.context.write(() => {
      const changed = this.context
        .statement(
          `UPDATE tool_calls SET ok = ?, output = ?, data_json = ?
           WHERE id = (SELECT max(id) FROM tool_calls WHERE run_id = ? AND call_id = ? AND ok IS NULL)`
        )
        .run(bit(result.ok), result.output, result.data === undefined ? null : toJson(result.data), runId, callId)
      if (changed.changes === 0) throw new StoreNotFoundError('unfinished tool call', `${runId}/${callId}`)
    })
  }

  toolCalls(runId: string): ToolCallView[] {
    return this.context
      .read(() => this.context.statement(`SELECT * FROM tool_calls WHERE run_id = ? ORDER BY id`).all(runId))
      .map((value) => toToolCall(toRow(value)))
  }

  /** Saves exactly what was sent for this run; saving again replaces it (a retried request). */
  savePrompt(runId: string, prompt: PromptPreview): void {
    this.context.write(() =>
      this.context
        .statement(
          `INSERT OR REPLACE INTO prompt_snapshots
             (run_id, system, user, messages_json, sections_json, budget_json, memory_json, diagnostics_json, override_mode)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
        )
        .run(
          runId,
          prompt.system,
          prompt.user,
          toJson(prompt.messages),
          toJson(prompt.sections),
          prompt.budget === null ? null : toJson(prompt.budget),
          toJson(prompt.memory),
          toJson(prompt.diagnostics),
          prompt.overrideMode
        )
    )
  }

  loadPrompt(runId: string): PromptPreview | null {
    const value = this.context.read(() =>
      this.context.statement(`SELECT * FROM prompt_snapshots WHERE run_id = ?`).get(runId)
    )
    if (value === undefined) return null
    const row = toRow(value)
    const parts = promptPreviewParts()
    return {
      system: text(row, 'system'),
      user: text(row, 'user'),
      messages: json(row, 'messages_json', parts.messages),
      sections: json(row, 'sections_json', parts.sections),
      memory: json(row, 'memory_json', parts.memory),
      diagnostics: json(row, 'diagnostics_json', parts.diagnostics),
      overrideMode: parts.overrideMode.parse(text(row, 'override_mode')),
      budget: jsonOrNull(row, 'budget_json', parts.budget)
    }
  }
}
