import { randomUUID } from 'node:crypto'
import type { RunEvent } from '../../shared/events'
import type { RequestMessage } from '../../shared/prompt'
import { loadProject } from '../project/load'
import type { ProjectSnapshot } from '../project/types'
import { assembleSystemPrompt } from '../prompt/system/assemble'
import { detectServers, listModels } from './discovery'
import { normalizeBaseUrl, SERVER_PRESETS, START_SERVER_GUIDANCE, type ServerPreset } from './endpoints'
import { runAgent, type RunOutcome } from './run-agent'
import { createDatabasePool } from './sql/database-pool'
import { createQueryStore } from './sql/query-store'
import { createAgentTools, DEFAULT_TOOL_LIMITS } from './tools'

// One question, one run, minimal assembly: the project's system prompt and the bare question. The app's
// composition root (history, memory, budget, persistence) replaces this for the desktop app and `ask`.

export interface AskOptions {
  projectDir: string
  question: string
  /** OpenAI-compatible base URL; default: the first local server detected. */
  endpoint?: string
  /** Default: the first model the server lists. */
  model?: string
  testMode?: boolean
  signal?: AbortSignal
  onEvent?: (event: RunEvent) => void
  maxRounds?: number
  now?: Date
  timezone?: string
  /** Where to look for servers when no endpoint is given (tests point this at closed ports). */
  presets?: readonly ServerPreset[]
  /** An already loaded project (the app keeps one); default: load projectDir. */
  project?: ProjectSnapshot
}

export interface AskResult extends RunOutcome {
  runId: string
  endpoint: string
  model: string
}

/** No model server could be found or reached; the message says how to start one. */
export class ModelServerUnavailableError extends Error {
  override name = 'ModelServerUnavailableError'
}

export async function askQuestion(options: AskOptions): Promise<AskResult> {
  if (options.question.trim() === '') throw new Error('The question is empty.')
  const project = options.project ?? (await loadProject(options.projectDir))
  const { endpoint, model, supportsTools } = await chooseModel(options)
  const testMode = options.testMode ?? false
  const tools = createAgentTools({ testMode })
  const system = assembleSystemPrompt({
    project,
    memory: { included: [], droppedCount: 0 },
    now: options.now ?? new Date(),
    timezone: options.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    testMode,
    tools: tools.map((tool) => tool.name)
  })
  const messages: RequestMessage[] = [
    { role: 'system', content: system.text },
    { role: 'user', content: options.question }
  ]
  const runId = `run-${randomUUID()}`
  const signal = options.signal ?? new AbortController().signal
  const databases = createDatabasePool(project, project.files)
  try {
    const outcome = await runAgent({
      endpoint: { baseUrl: endpoint, model },
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
        limits: DEFAULT_TOOL_LIMITS
      },
      signal,
      onEvent: options.onEvent ?? (() => undefined),
      runId,
      maxRounds: options.maxRounds,
      testMode,
      ...(supportsTools === false ? { modelSupportsTools: false } : {})
    })
    return { ...outcome, runId, endpoint, model }
  } finally {
    databases.close()
  }
}

async function chooseModel(options: AskOptions): Promise<{ endpoint: string; model: string; supportsTools: boolean | null }> {
  let endpoint: string
  if (options.endpoint) endpoint = normalizeBaseUrl(options.endpoint)
  else {
    const [first] = await detectServers({ presets: options.presets ?? SERVER_PRESETS, timeoutMs: 800 })
    if (!first) throw new ModelServerUnavailableError(START_SERVER_GUIDANCE)
    endpoint = first.baseUrl
  }
  // A named model needs no look-up: the request goes out at once.
  if (options.model) return { endpoint, model: options.model, supportsTools: null }
  let models
  try {
    models = await listModels(endpoint, { timeoutMs: 3_000 })
  } catch (error) {
    throw new ModelServerUnavailableError(
      `Could not list the models of ${endpoint} (${error instanceof Error ? error.message : String(error)}).\n${START_SERVER_GUIDANCE}`
    )
  }
  const first = models[0]
  if (!first) throw new ModelServerUnavailableError(`${endpoint} serves no model. Load or pull one (e.g. \`ollama pull qwen3:8b\`), or pass --model NAME.`)
  return { endpoint, model: first.id, supportsTools: first.tools }
}
