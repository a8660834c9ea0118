import { START_SERVER_GUIDANCE } from '../agent/endpoints'
import { captureRequests } from '../agent/request-capture'
import type { RunOutcome } from '../agent/run-agent'
import { createQueryStore } from '../agent/sql/query-store'
import { DEFAULT_TOOL_LIMITS, type AgentResultRecord, type ToolContext } from '../agent/tools'
import type { Store } from '../store'
import type { RunStatus } from '../store/runs-repo'
import type { FileMeta } from '../prompt/user/context-block'
import type { ChatMessageView, PushEvent, Settings } from '../../shared/api'
import type { RunEvent, StopReason } from '../../shared/events'
import type { ResolvedModel } from './model-resolver'
import { promptInputs } from './prompt-inputs'
import { explainRunFailure } from './run-failure'
import { assemblePrompt, type AssembledPrompt, type PromptModelInfo } from './prompt-assembly'
import type { TokenCalibration } from './token-calibration'
import { fitExactly } from './exact-fit'
import { ServerTokenCounter } from '../agent/server-token-count'
import type { ProjectSession } from './project-session'
import { errorMessage } from '../../shared/error-message'

// One chat turn end to end: assemble the prompt (the same function the inspector previews with), persist
// the run and the exact prompt, stream the agent, persist every tool call and the answer, and push each
// event to whoever listens (IPC, SSE, `ask --json`). A failure at any step becomes a message in the chat.

export interface StartRunInput {
  session: ProjectSession
  chatId: string
  /** The stored user message this run answers; history is everything before it. */
  userMessageId: string
  /** The user's message as sent (with a chosen skill's body). */
  question: string
  files: FileMeta[]
  /** Attached images as data URLs (sent only to a model with vision). */
  images: string[]
  settings: Settings
  model: ResolvedModel
  testMode: boolean
  now: Date
  /** Reads the model's window from the server again (after a refusal for length). */
  rereadWindow?: () => Promise<{ contextWindow: number; contextSource: string } | null>
}

export interface StartedRun {
  runId: string
  /** Resolves when the run has ended and everything is stored. */
  done: Promise<RunOutcome | null>
}

/** How often a streaming answer is written to the store (the UI gets every delta through events). */
const SAVE_INTERVAL_MS = 250

export class RunManager {
  private readonly active = new Map<string, { controller: AbortController; done: Promise<RunOutcome | null> }>()

  constructor(
    private readonly store: Store,
    private readonly push: (event: PushEvent) => void,
    private readonly calibration: TokenCalibration,
    private readonly counter: ServerTokenCounter = new ServerTokenCounter()
  ) {}

  async start(input: StartRunInput): Promise<StartedRun> {
    const { store } = this
    const { session, chatId, model } = input
    const snapshot = session.snapshot()
    const chat = store.chats.get(chatId)
    const inputs = promptInputs({
      store,
      projectId: session.projectId,
      project: snapshot,
      chat,
      earlier: messagesBefore(chat.messages, input.userMessageId),
      question: input.question,
      files: input.files,
      images: input.images,
      testMode: input.testMode,
      now: input.now,
      timezone: input.settings.timezone,
      channel: chat.channel,
      forkSelection: chat.selection,
      projectTools: session.mcp.tools()
    })
    const { tools } = inputs
    const endpoint = model.endpoint
    const run = store.runs.start({
      chatId,
      model: endpoint?.model ?? 'none',
      endpoint: endpoint?.baseUrl ?? 'none',
      testMode: input.testMode
    })
    const runId = run.id
    const answer = store.chats.addMessage({ chatId, role: 'assistant', text: '', status: 'streaming', runId })

    // A memory learned in this chat applies from the next message on, like in any other chat.
    const assemble = (info: PromptModelInfo): AssembledPrompt => assemblePrompt({ ...inputs, model: info })
    let assembled: AssembledPrompt
    let counted: number | null = null
    try {
      if (endpoint) {
        // Counted exactly by the server where it can (llama.cpp), refitted if the estimate was too low.
        const toolSpecs = model.tools === false ? [] : tools
        ;({ assembled, counted } = await fitExactly({ assemble, model: model.info, endpoint, tools: toolSpecs, counter: this.counter, calibration: this.calibration }))
      } else assembled = assemble(model.info)
      store.runs.savePrompt(runId, assembled.preview)
    } catch (error) {
      return this.failBeforeSending(runId, chatId, answer.id, errorMessage(error))
    }
    if (!endpoint) return this.failBeforeSending(runId, chatId, answer.id, model.unavailable ?? START_SERVER_GUIDANCE)

    const controller = new AbortController()
    const toolContext: ToolContext = {
      project: snapshot,
      signal: controller.signal,
      runId,
      databases: session.databases(),
      queryStore: createQueryStore(`${runId.slice(0, 6)}_q`),
      readAgentResult: async (resultId) => this.readAgentResult(chatId, resultId),
      readToolResult: async (resultId, callId) => this.readToolResult(resultId, callId),
      limits: DEFAULT_TOOL_LIMITS
    }

    const streamed = { text: '', reasoning: '', savedAt: 0, firstToken: false }
    const budget = assembled.preview.budget
    const usedScale = model.info.tokenScale ?? 1
    // An exact count already taught the calibration; reported usage is the fallback.
    let calibrated = counted !== null
    const ending: RunEvent[] = []
    const onEvent = (event: RunEvent): void => {
      if (event.type === 'usage' && !calibrated && budget) {
        // The first round's prompt is exactly the request we estimated (with the scale of that time).
        calibrated = true
        this.calibration.record(endpoint, (budget.used - budget.reservedOutput) / usedScale, event.inputTokens)
      }
      if (event.type === 'usage' && event.round) {
        try {
          this.store.runs.saveRoundUsage(runId, event.round, event.servedModel ?? null)
        } catch {
          // The run goes on even if the store cannot keep the round's figures.
        }
      }
      this.record(event, runId, answer.id, streamed)
      // The ending is told once the run is stored, with the failure explained (see explainRunFailure).
      if (event.type === 'error' || event.type === 'end') ending.push(event)
      else this.push({ channel: 'run', event })
    }
    // Every request the run makes is stored as sent, round by round, for the inspector.
    const saveRequest = (request: { url: string; body: string }): void => {
      try {
        this.store.runs.saveRequest(runId, request)
      } catch {
        // The run goes on even if the store cannot keep this copy.
      }
    }
    // The agent loop (and its model client) loads on the first run, not when the services start.
    const done = captureRequests(saveRequest, () =>
      import('../agent/run-agent').then(({ runAgent }) =>
        runAgent({
          endpoint,
          messages: assembled.request,
          tools,
          toolContext,
          signal: controller.signal,
          onEvent,
          runId,
          chatId,
          testMode: input.testMode,
          modelSupportsTools: model.tools ?? undefined,
          maxOutputTokens: model.info.reservedOutput
        })
      )
    )
      .then(async (outcome) => {
        const error = outcome.error === undefined ? undefined : await explainRunFailure(outcome.error, { endpoint, budget, rereadWindow: input.rereadWindow })
        this.finish(runId, answer.id, outcome.answer, streamed.reasoning, statusOf(outcome.stopReason), outcome.stopReason, error, outcome.usage, outcome.servedModel)
        for (const event of ending) this.push({ channel: 'run', event: event.type === 'error' && error !== undefined ? { ...event, message: error } : event })
        return outcome
      })
      .catch((error: unknown) => {
        const message = `The run failed: ${errorMessage(error)}`
        this.finish(runId, answer.id, streamed.text, streamed.reasoning, 'failed', 'error', message, null)
        this.push({ channel: 'run', event: { type: 'error', runId, message } })
        this.push({ channel: 'run', event: { type: 'end', runId, stopReason: 'error', answer: streamed.text } })
        return null
      })
      .finally(() => this.active.delete(runId))
    this.active.set(runId, { controller, done })
    return { runId, done }
  }

  stop(runId: string): void {
    this.active.get(runId)?.controller.abort()
  }

  /** Resolves when the run has ended (immediately for a run that is not active). */
  async wait(runId: string): Promise<void> {
    await this.active.get(runId)?.done
  }

  async stopAll(): Promise<void> {
    const runs = [...this.active.values()]
    for (const run of runs) run.controller.abort()
    await Promise.all(runs.map((run) => run.done))
  }

  private record(event: RunEvent, runId: string, messageId: string, streamed: { text: string; reasoning: string; savedAt: number; firstToken: boolean }): void {
    const runs = this.store.runs
    if (!streamed.firstToken && (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'tool-start')) {
      // Time to first token: the model's first output of any kind (text, reasoning or a tool call).
      streamed.firstToken = true
      runs.markFirstToken(runId)
    }
    switch (event.type) {
      case 'text-delta':
        streamed.text += event.text
        if (Date.now() - streamed.savedAt > SAVE_INTERVAL_MS) {
          streamed.savedAt = Date.now()
          this.store.chats.updateMessage(messageId, { text: streamed.text })
        }
        break
      case 'reasoning-delta':
        streamed.reasoning += event.text
        break
      case 'tool-start':
        runs.startToolCall(runId, { callId: event.callId, name: event.name, args: event.args })
        break
      case 'tool-end':
        runs.finishToolCall(runId, event.callId, { ok: event.ok, output: event.output, data: event.data })
        break
      default:
        break
    }
  }

  private finish(
    runId: string,
    messageId: string,
    text: string,
    reasoning: string,
    status: Exclude<RunStatus, 'running'>,
    stopReason: StopReason,
    error: string | undefined,
    usage: { inputTokens: number; outputTokens: number } | null,
    servedModel: string | null = null
  ): void {
    // The answer keeps only what the model wrote; the failure is said once, beside it (runs.error).
    this.store.chats.updateMessage(messageId, {
      text,
      reasoning: reasoning === '' ? null : reasoning,
      status
    })
    this.store.runs.finish(runId, { status, stopReason, error: error ?? null, usage, servedModel })
  }

  /** Nothing was sent: the chat says why and what to do, and the run is stored as failed. */
  private failBeforeSending(runId: string, chatId: string, messageId: string, message: string): StartedRun {
    this.finish(runId, messageId, '', '', 'failed', 'error', message, null)
    this.push({ channel: 'run', event: { type: 'run-start', runId, chatId, model: 'none' } })
    this.push({ channel: 'run', event: { type: 'error', runId, message } })
    this.push({ channel: 'run', event: { type: 'end', runId, stopReason: 'error', answer: '' } })
    return { runId, done: Promise.resolve(null) }
  }

  private readAgentResult(chatId: string, resultId: string): AgentResultRecord | null {
    const messages = this.store.chats.get(chatId).messages
    const elsewhere = this.messageById(resultId)
    if (elsewhere && !messages.some((candidate) => candidate.id === resultId)) {
      // The answer a fork was made from lives in the parent chat.
      return { resultId, title: elsewhere.text.slice(0, 80), status: elsewhere.status ?? 'done', content: elsewhere.text, toolCalls: [] }
    }
    if (resultId.startsWith(`chat:${chatId}`)) {
      // Archived history: every earlier turn, as the user and the assistant said it.
      const content = messages.map((message) => `${message.role}: ${message.text}`).join('\n\n')
      return { resultId, title: 'Archived chat history', status: 'done', content, toolCalls: [] }
    }
    const message = messages.find((candidate) => candidate.id === resultId || candidate.runId === resultId)
    if (!message) return null
    const toolCalls = (message.toolCalls ?? []).map((call) => ({
      callId: call.callId,
      toolName: call.name,
      status: call.ok === false ? 'failed' : 'done'
    }))
    return { resultId, title: message.text.slice(0, 80), status: message.status ?? 'done', content: message.text, toolCalls }
  }

  private messageById(messageId: string): ChatMessageView | null {
    try {
      return this.store.chats.message(messageId)
    } catch {
      return null
    }
  }

  private readToolResult(resultId: string, callId: string) {
    try {
      const call = this.store.runs.toolCalls(resultId).find((candidate) => candidate.callId === callId)
      if (!call) return null
      return { resultId, callId, toolName: call.name, args: call.args, ok: call.ok ?? false, output: call.output }
    } catch {
      return null
    }
  }
}

function messagesBefore(messages: readonly ChatMessageView[], messageId: string): ChatMessageView[] {
  const index = messages.findIndex((message) => message.id === messageId)
  return index === -1 ? [...messages] : messages.slice(0, index)
}


function statusOf(stopReason: StopReason): Exclude<RunStatus, 'running'> {
  if (stopReason === 'error') return 'failed'
  if (stopReason === 'cancelled') return 'cancelled'
  return 'done'
}

