import { EvaluationError } from './evaluation-error'
import { auditContext, createSqlTableParser, filesRead } from '../eval/context-audit'
import type { CaseRun } from '../eval/classify-case'
import { buildMatrix, compareEvaluations } from '../eval/matrix'
import { runEvaluation, type EvalDatabases, type EvalModel } from '../eval/run-evaluation'
import { poolSqlRunner } from '../eval/run-sql'
import { isBroken, loadTestCases, type LoadedTestCase } from '../eval/test-cases'
import type { Store } from '../store'
import type { EvaluationComparison, EvaluationDetail, PushEvent, EvaluationCaseInfo } from '../../shared/api'
import type { RunEvent, StopReason } from '../../shared/events'
import type { RunOutcome } from '../agent/run-agent'
import type { ProjectSession } from './project-session'

// The Tests panel and `glassbox test`: each case is a real chat run in test mode through the same path as
// any question (so its prompts and tool calls are stored and open in the inspector), in a chat kept out of
// the chat list, compared with the expected SQL's result on the project's database. An evaluation runs the
// suite for one or more models and is stored case by case, so history and comparisons survive restarts.


export interface EvaluationDeps {
  store: Store
  session: () => ProjectSession
  push: (event: PushEvent) => void
  /** Starts a test-mode run of `prompt` with this model in a new evaluation chat. */
  startRun: (input: { chatId: string; prompt: string; model: EvalModel }) => Promise<{ runId: string; done: Promise<RunOutcome | null> }>
  stopRun: (runId: string) => void
  /** Listens to run events (first token time); returns the unsubscribe function. */
  onRunEvent: (listener: (event: RunEvent) => void) => () => void
  /** The system prompt a test-mode question would be given now. */
  systemPrompt: () => Promise<string>
}

export interface StartEvaluationInput {
  models: EvalModel[]
  files?: string[]
  evaluationId?: string
  timeoutMs?: number
}

export class EvaluationService {
  private readonly active = new Map<string, AbortController>()
  private busy = false
  /** DuckDB's parser for the audit's table names: one in-memory engine for the service's lifetime. */
  private readonly parser = createSqlTableParser()

  constructor(private readonly deps: EvaluationDeps) {}

  async listCases(): Promise<EvaluationCaseInfo[]> {
    const cases = await loadTestCases(this.deps.session().snapshot().root)
    return cases.map((item) => (isBroken(item) ? { file: item.file, name: item.name, prompt: null, error: item.error } : { file: item.file, name: item.name, prompt: item.prompt }))
  }

  cancel(evaluationId: string): void {
    this.active.get(evaluationId)?.abort()
  }

  cancelAll(): void {
    for (const controller of this.active.values()) controller.abort()
  }

  close(): void {
    this.cancelAll()
    this.parser.close()
  }

  async run(input: StartEvaluationInput): Promise<EvaluationDetail> {
    // Two evaluations at once would send two requests at a time to one local server.
    if (this.busy) throw new EvaluationError('An evaluation is already running: wait for it or cancel it first.')
    this.busy = true
    try {
      return await this.runOne(input)
    } finally {
      this.busy = false
    }
  }

  private async runOne(input: StartEvaluationInput): Promise<EvaluationDetail> {
    const { store, push } = this.deps
    const session = this.deps.session()
    const snapshot = session.snapshot()
    const all = await loadTestCases(snapshot.root)
    const cases = input.files ? all.filter((item) => input.files?.includes(item.file)) : all
    if (input.files && cases.length === 0) throw new EvaluationError(`No such test case: ${input.files.join(', ')}`)
    if (input.evaluationId && store.evaluations.projectOf(input.evaluationId) !== session.projectId) {
      throw new EvaluationError('That evaluation belongs to another project.')
    }
    // Expected SQL runs through the agent's own pool, on the database the case names or where the agent's
    // last query ran (the pool resolves names as execute_sql's database_id does).
    const pool = session.databases()
    const databases: EvalDatabases = {
      names: pool.list().map((database) => database.id),
      resolve: (name) => pool.find(name).id,
      run: (id, sql) => poolSqlRunner(pool, pool.find(id))(sql)
    }
    const parser = this.parser
    const evaluationId = input.evaluationId ?? store.evaluations.start(session.projectId)
    if (input.evaluationId) store.evaluations.reopen(evaluationId)
    const controller = new AbortController()
    this.active.set(evaluationId, controller)
    try {
      const systemPrompt = await this.deps.systemPrompt()
      const rows = new Map(input.models.map((model) => [key(model), store.evaluations.addModel(evaluationId, { ...model, systemPrompt })]))
      const confirmed = new Set<number>()
      await runEvaluation({
        cases,
        models: input.models,
        signal: controller.signal,
        timeoutMs: input.timeoutMs,
        databases,
        ask: (model, testCase, signal) => this.ask(session, model, testCase.name, testCase.prompt, signal),
        audit: async (finalSql, calls) =>
          auditContext({ read: filesRead(snapshot.root, calls), touched: finalSql ? await parser.tables(finalSql) : [], tables: session.snapshot().tables }),
        onProgress: (progress) => {
          const row = rows.get(key(progress.model))
          if (progress.result && row) {
            store.evaluations.putCase(row.id, progress.result)
            // What the model's first run was actually sent is the prompt on record (fitting may have trimmed it).
            const sent = progress.result.runId && !confirmed.has(row.id) ? store.runs.get(progress.result.runId).prompt?.system : undefined
            if (sent !== undefined) {
              confirmed.add(row.id)
              if (sent !== systemPrompt) store.evaluations.addModel(evaluationId, { ...progress.model, systemPrompt: sent })
            }
          }
          push({
            channel: 'evaluation-progress',
            progress: {
              evaluationId,
              model: progress.model.model,
              endpoint: progress.model.endpoint,
              modelIndex: progress.modelIndex,
              modelCount: progress.modelCount,
              caseIndex: progress.caseIndex,
              caseCount: progress.caseCount,
              file: progress.testCase.file,
              name: progress.testCase.name,
              elapsedMs: progress.elapsedMs,
              estimateLeftMs: progress.estimateLeftMs,
              ...(progress.result ? { result: progress.result } : {})
            }
          })
        }
      })
    } finally {
      store.evaluations.finish(evaluationId, controller.signal.aborted ? 'cancelled' : 'done')
      this.active.delete(evaluationId)
    }
    return this.detail(evaluationId, all)
  }

  async detail(evaluationId: string, cases?: LoadedTestCase[]): Promise<EvaluationDetail> {
    const { store } = this.deps
    const session = this.deps.session()
    if (store.evaluations.projectOf(evaluationId) !== session.projectId) throw new EvaluationError('That evaluation belongs to another project.')
    const runs = store.evaluations.runs(evaluationId)
    const order = cases ?? (await loadTestCases(session.snapshot().root))
    return { ...store.evaluations.summary(evaluationId), runs, matrix: buildMatrix(runs, order) }
  }

  async compare(before: string, after: string): Promise<EvaluationComparison> {
    return compareEvaluations(await this.detail(before, []), await this.detail(after, []))
  }

  /** One case for one model: a test-mode run in an evaluation chat, with the figures the outcome needs. */
  private async ask(session: ProjectSession, model: EvalModel, name: string, prompt: string, signal: AbortSignal): Promise<CaseRun> {
    const { store } = this.deps
    const chat = store.chats.create(session.projectId, { title: `Test: ${name} · ${model.model}`, purpose: 'evaluation' })
    let sentAt: number | null = null
    let firstTokenMs: number | null = null
    let runId: string | null = null
    const unsubscribe = this.deps.onRunEvent((event) => {
      if (event.type === 'run-start' && event.chatId === chat.id) {
        runId = event.runId
        sentAt = performance.now()
      } else if (event.runId === runId && sentAt !== null && firstTokenMs === null && (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'tool-start')) {
        firstTokenMs = Math.round(performance.now() - sentAt)
      }
    })
    try {
      const started = await this.deps.startRun({ chatId: chat.id, prompt, model })
      const stop = (): void => this.deps.stopRun(started.runId)
      if (signal.aborted) stop()
      signal.addEventListener('abort', stop)
      const outcome = await started.done.finally(() => signal.removeEventListener('abort', stop))
      const record = store.runs.getRecord(started.runId)
      const usage = outcome?.usage ?? record.usage ?? { inputTokens: 0, outputTokens: 0 }
      const stopReason: StopReason = outcome?.stopReason ?? toStopReason(record.stopReason)
      return {
        runId: started.runId,
        stopReason,
        ...(outcome?.error || record.error ? { error: outcome?.error ?? record.error ?? undefined } : {}),
        toolCalls: store.runs.toolCalls(started.runId),
        rounds: outcome?.toolRounds ?? 0,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        firstTokenMs
      }
    } finally {
      unsubscribe()
    }
  }
}

const STOP_REASONS: readonly StopReason[] = ['answer', 'length', 'stop-tool', 'round-limit', 'loop-guard', 'cancelled', 'error']

function toStopReason(value: string | null): StopReason {
  return STOP_REASONS.find((reason) => reason === value) ?? 'error'
}

function key(model: EvalModel): string {
  return `${model.endpoint}\n${model.model}`
}
