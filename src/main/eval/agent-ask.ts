import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { runAgent } from '../agent/run-agent'
import { createDatabasePool } from '../agent/sql/database-pool'
import { createQueryStore } from '../agent/sql/query-store'
import { createAgentTools, DEFAULT_TOOL_LIMITS } from '../agent/tools'
import { loadProject } from '../project/load'
import { buildRequestMessages } from '../prompt/request/build-request'
import { assembleSystemPrompt } from '../prompt/system/assemble'
import { buildUserPrompt } from '../prompt/user/build-user-prompt'
import type { AgentAnswer, EvalAsk } from './run-evaluation'

// The evaluation's agent: each prompt is one fresh test-mode run (no history, no memory, no clarification)
// of the real agent loop on the real project; the result of its last successful execute_sql is the answer.
// The app's composition root may pass its own `ask` (e.g. one that also persists runs) instead.

export interface EvalAskOptions {
  root: string
  /** OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 */
  endpoint: string
  /** Model name; default: the first one the server lists. */
  model?: string
  maxRounds?: number
}

export interface EvalAskHandle {
  ask: EvalAsk
  close: () => void
}

/** Rows kept per query for comparison (the model itself still sees only the usual few). */
const EVAL_MAX_ROWS_STORED = 100_000

const executeSqlData = z.object({
  sql: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  totalRows: z.number()
})

export async function createEvalAsk(options: EvalAskOptions): Promise<EvalAskHandle> {
  const project = await loadProject(options.root)
  const model = options.model ?? (await firstModel(options.endpoint))
  const tools = createAgentTools({ testMode: true })
  const databases = createDatabasePool(project, project.files)
  const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone

  const ask: EvalAsk = async (prompt): Promise<AgentAnswer> => {
    const runId = `eval-${randomUUID()}`
    const system = assembleSystemPrompt({
      project,
      memory: { included: [], droppedCount: 0 },
      now: new Date(),
      timezone,
      testMode: true,
      tools: tools.map((tool) => tool.name)
    })
    const messages = buildRequestMessages({ system: system.text, history: [], user: buildUserPrompt(prompt, null), model: { supportsPromptCache: false } })
    const signal = new AbortController().signal
    const outcome = await runAgent({
      endpoint: { baseUrl: options.endpoint, model },
      messages,
      tools,
      toolContext: {
        project,
        signal,
        runId,
        databases,
        queryStore: createQueryStore(),
        readAgentResult: async () => null,
        readToolResult: async () => null,
        limits: { ...DEFAULT_TOOL_LIMITS, maxRowsStored: EVAL_MAX_ROWS_STORED }
      },
      signal,
      onEvent: () => undefined,
      runId,
      maxRounds: options.maxRounds,
      testMode: true
    })
    if (outcome.stopReason === 'error') throw new Error(outcome.error ?? 'the model server reported an error')
    return { runId, lastSql: lastSqlResult(outcome.toolCalls), tokens: outcome.usage.inputTokens + outcome.usage.outputTokens }
  }
  return { ask, close: () => databases.close() }
}

export function lastSqlResult(calls: ReadonlyArray<{ name: string; ok: boolean | null; data?: unknown }>): AgentAnswer['lastSql'] {
  for (const call of [...calls].reverse()) {
    if (call.name !== 'execute_sql' || !call.ok) continue
    const data = executeSqlData.safeParse(call.data)
    if (!data.success) continue
    if (data.data.totalRows > data.data.rows.length) {
      throw new Error(`the agent's last query returned ${data.data.totalRows} rows; evaluation compares at most ${EVAL_MAX_ROWS_STORED}`)
    }
    return { sql: data.data.sql, columns: data.data.columns, rows: data.data.rows }
  }
  return null
}

const modelList = z.object({ data: z.array(z.object({ id: z.string() })) })

async function firstModel(endpoint: string): Promise<string> {
  const url = `${endpoint.replace(/\/+$/, '')}/models`
  let body: unknown
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    body = await response.json()
  } catch (error) {
    throw new Error(`cannot list the models of ${endpoint} (${error instanceof Error ? error.message : String(error)}); pass --model NAME`)
  }
  const models = modelList.safeParse(body)
  const first = models.success ? models.data.data[0]?.id : undefined
  if (!first) throw new Error(`${endpoint} lists no model; pass --model NAME`)
  return first
}
