import { existsSync } from 'node:fs'
import { detectServers, listModels, type ModelInfo } from '../agent/discovery'
import { normalizeBaseUrl, SERVER_PRESETS, type ServerPreset } from '../agent/endpoints'
import { resolveDataDir } from '../data-dir'
import { createAgentTools } from '../agent/tools'
import { ContextWindowTooSmallError, DEFAULT_SAFETY_MARGIN_RATIO } from '../prompt/budget'
import { selectStoredMemories } from '../memory/select'
import { openStore, type Store } from '../store'
import { DEFAULT_CHAT_TITLE } from '../store/chats-repo'
import type { ApiInputs, ChatDetail, GlassboxApi, ModelServerView, PushEvent, Settings } from '../../shared/api'
import type { PromptPreview } from '../../shared/prompt'
import { RunManager, toHistory, type StartedRun } from './chat-runs'
import { EvaluationError, EvaluationService } from './evaluation'
import type { EvalModel } from '../eval/run-evaluation'
import { describeMessageFiles, forkedFrom, messageText, type MessageExtras } from './message-inputs'
import { ModelResolver } from './model-resolver'
import { assemblePrompt, type PromptModelInfo } from './prompt-assembly'
import { ProjectSession } from './project-session'
import { TokenCalibration } from './token-calibration'
import { errorMessage } from '../../shared/error-message'
import { describeDataSource } from '../engines/registry'

// The composition root: one set of services behind the API contract, shared by the desktop app (IPC),
// web mode (HTTP + SSE) and the command line. Nothing here imports Electron.

export interface GlassboxOptions {
  /** Where the SQLite store lives (see resolveDataDir). */
  dataDir?: string
  /** Project to open at start. */
  projectPath?: string
  /** Without projectPath: reopen the project used last (the desktop app does). */
  reopenLastProject?: boolean
  /** Without projectPath or a last project: this one (the sample project on a first start). */
  defaultProjectPath?: string
  /** Preselected model server and model (otherwise: the saved setting, then the first detected server). */
  endpoint?: string
  model?: string
  /** Watch the project for changes (the app and web mode); one-shot commands load it once. */
  watch?: boolean
  /** A better_sqlite3.node built for this runtime (the Electron app passes its own). */
  nativeBinding?: string
  /** Clock (tests pin it). */
  now?: () => Date
  /** Where to look for model servers when none is configured (tests point this at closed ports). */
  serverPresets?: readonly ServerPreset[]
  /** Learn memories from each user message in the background (default true). */
  extractMemories?: boolean
}

export interface Glassbox extends GlassboxApi {
  readonly store: Store
  /** The open project, or an error that says how to open one. */
  session(): ProjectSession
  /** Resolves when the run has ended and everything about it is stored. */
  waitForRun(runId: string): Promise<void>
  /** sendMessage for the command line and tests: may force test mode and hands back the run's completion. */
  send(input: { chatId: string; text: string; testMode?: boolean; model?: EvalModel }): Promise<StartedRun>
  /** previewPrompt with what the command line can pin besides. */
  preview(input: PreviewOptions): Promise<PromptPreview>
  close(): Promise<void>
}

export type PreviewOptions = ApiInputs['previewPrompt'] & {
  channel?: string | null
  timezone?: string
  now?: Date
  forkSelection?: string
  /** Ask the model server for its window before assembling (the command line); the app previews instantly. */
  resolveModel?: boolean
}

const RECENT_PROJECTS_KEY = 'recentProjects'
const TITLE_CHARS = 60

/** A new chat is named after its first question, so the sidebar tells chats apart. */
function chatTitle(question: string): string {
  const flat = question.replace(/\s+/g, ' ').trim()
  return flat.length > TITLE_CHARS ? flat.slice(0, TITLE_CHARS - 1) + '…' : flat
}
const MAX_RECENT_PROJECTS = 10

export class NoProjectOpenError extends Error {
  constructor() {
    super('No project is open. Open a project folder first.')
    this.name = 'NoProjectOpenError'
  }
}

export async function createGlassbox(options: GlassboxOptions = {}): Promise<Glassbox> {
  const store = openStore(resolveDataDir(options.dataDir), { nativeBinding: options.nativeBinding })
  // A run whose process was killed mid-way would otherwise show as still streaming for ever.
  store.runs.markInterrupted()
  const now = options.now ?? (() => new Date())
  const listeners = new Set<(event: PushEvent) => void>()
  const push = (event: PushEvent): void => {
    for (const listener of listeners) listener(event)
  }
  const models = new ModelResolver(options.serverPresets, new TokenCalibration(store.tokenScales))
  const runs = new RunManager(store, push, models.calibration)
  // `--endpoint`/`--model` preselect the model for this session, over the saved setting, until the user
  // picks another one in the app.
  let preselected = { endpoint: options.endpoint ? normalizeBaseUrl(options.endpoint) : null, model: options.model ?? null }
  let current: ProjectSession | null = null
  /** Running syncs, so cancelSync can stop them. */
  const syncs = new Set<AbortController>()
  const extractions = new Set<Promise<unknown>>()
  let stopWatching: () => void = () => undefined

  const session = (): ProjectSession => {
    if (!current) throw new NoProjectOpenError()
    return current
  }
  const settings = (): Settings => {
    const stored = store.settings.read(current?.projectId ?? null)
    return { ...stored, endpoint: preselected.endpoint ?? stored.endpoint, model: preselected.model ?? stored.model }
  }

  async function open(path: string): Promise<ProjectSession> {
    const next = await ProjectSession.open(store, path, { watch: options.watch ?? true })
    stopWatching()
    await current?.close()
    current = next
    stopWatching = next.onChange(() => push({ channel: 'project-changed', project: next.info() }))
    const root = next.snapshot().root
    const earlier = recentProjects().filter((path) => path !== root)
    store.settings.setValue(RECENT_PROJECTS_KEY, [root, ...earlier].slice(0, MAX_RECENT_PROJECTS), null)
    return next
  }

  function recentProjects(): string[] {
    const recent = store.settings.getValue(RECENT_PROJECTS_KEY, null)
    return Array.isArray(recent) ? recent.filter((item): item is string => typeof item === 'string') : []
  }

  function lastProject(): string | undefined {
    return recentProjects().find((path) => existsSync(path))
  }

  /** Stores the user's message, starts the run answering it, and learns memories from it in the background. */
  async function ask(chatId: string, text: string, extras: MessageExtras, testMode?: boolean, forModel?: EvalModel, turnId?: string): Promise<StartedRun> {
    const project = session()
    const snapshot = project.snapshot()
    const question = messageText(snapshot, text, extras.skill)
    const { files, images } = await describeMessageFiles(snapshot, extras)
    // An evaluation names its model; everything else comes from the settings.
    const current = forModel ? { ...settings(), endpoint: forModel.endpoint, model: forModel.model } : settings()
    // The run reads the whole chat once; naming it needs only its title and whether it is still empty.
    const untitled = store.chats.summary(chatId).title === DEFAULT_CHAT_TITLE && store.chats.recentMessages(chatId, 1).length === 0
    const userMessage = store.chats.addMessage({ chatId, role: 'user', text: question, status: 'done', turnId })
    if (untitled) store.chats.rename(chatId, chatTitle(text))
    const model = await models.resolve(current)
    const started = await runs.start({
      session: project,
      chatId,
      userMessageId: userMessage.id,
      question,
      files,
      images,
      settings: current,
      model,
      testMode: testMode ?? current.testMode,
      now: now()
    })
    const endpoint = model.endpoint
    if (endpoint && current.memoryEnabled && options.extractMemories !== false && !(testMode ?? current.testMode)) {
      // After the answer: a local server often serves one request at a time, and the answer must never wait
      // for memory. close() waits for it, so the store is not closed under it.
      const memoryEndpoint = { baseUrl: endpoint.baseUrl, model: current.memoryModel ?? endpoint.model }
      const extraction = started.done
        // Loaded on first use, like sync: the CLI's prompt command never pays for the model client.
        .then(async () => {
          const { scheduleMemoryExtraction } = await import('../memory/extract')
          return scheduleMemoryExtraction({ store, projectId: project.projectId, chatId, endpoint: memoryEndpoint })
        })
        .then((result) => {
          if (result.status === 'saved' && result.inserted.length > 0) push({ channel: 'memory-learned', chatId, memories: result.inserted })
          return result
        })
      extractions.add(extraction)
      void extraction.finally(() => extractions.delete(extraction))
    }
    return started
  }

  /** The prompt a question would send now, without sending it. The CLI may pin what the app takes from settings. */
  async function preview(input: PreviewOptions): Promise<PromptPreview> {
    const project = session()
    const snapshot = project.snapshot()
    const current = settings()
    const testMode = input.testMode ?? current.testMode
    const chat = input.chatId ? store.chats.get(input.chatId) : null
    const extras = { attachments: input.attachments, tables: input.tables, skill: input.skill }
    const { files, images } = await describeMessageFiles(snapshot, extras)
    const assemble = (model: PromptModelInfo) =>
      assemblePrompt({
        project: snapshot,
        question: input.question.trim() === '' ? '' : messageText(snapshot, input.question, input.skill),
        files,
        images,
        results: forkedFrom(chat, (id) => store.chats.message(id)),
        memory: selectStoredMemories(store, project.projectId, {
          budgetTokens: input.memoryBudget ?? current.memoryBudget,
          memoryEnabled: current.memoryEnabled
        }),
        tools: createAgentTools({ testMode }),
        testMode,
        now: input.now ?? now(),
        timezone: input.timezone ?? current.timezone,
        channel: input.channel !== undefined ? input.channel : (chat?.channel ?? current.channel),
        forkSelection: input.forkSelection ?? chat?.selection ?? null,
        history: chat ? toHistory(chat.messages) : [],
        archiveSource: `chat:${input.chatId ?? 'new'}`,
        model
      })
    const model = (input.resolveModel ? await models.resolve(current) : await models.peekSoon(current)).info
    try {
      return assemble(model).preview
    } catch (error) {
      if (!(error instanceof ContextWindowTooSmallError)) throw error
      // The inspector still shows what would be sent, against the real window, and why it will not be.
      const unfitted = assemble({ ...model, contextWindow: Number.MAX_SAFE_INTEGER }).preview
      return {
        ...unfitted,
        budget: unfitted.budget && {
          ...unfitted.budget,
          contextWindow: model.contextWindow,
          safetyMargin: Math.ceil(model.contextWindow * DEFAULT_SAFETY_MARGIN_RATIO)
        },
        diagnostics: [...unfitted.diagnostics, { file: 'context window', problem: error.message }]
      }
    }
  }

  const evaluations = new EvaluationService({
    store,
    session,
    push,
    startRun: ({ chatId, prompt, model }) => ask(chatId, prompt, {}, true, model),
    stopRun: (runId) => runs.stop(runId),
    onRunEvent: (listener) => {
      const forward = (event: PushEvent): void => {
        if (event.channel === 'run') listener(event.event)
      }
      listeners.add(forward)
      return () => listeners.delete(forward)
    },
    systemPrompt: async () => (await preview({ question: '', testMode: true })).system
  })

  /** The models an evaluation asks for, each on a server: a named one, else the configured one. */
  async function evaluationModels(requested: { endpoint?: string; model: string }[] | undefined): Promise<EvalModel[]> {
    const current = settings()
    const wanted = requested ?? [{ endpoint: undefined, model: current.model ?? '' }]
    return Promise.all(
      wanted.map(async ({ endpoint, model }) => {
        if (endpoint && model) return { endpoint: normalizeBaseUrl(endpoint), model }
        const resolved = await models.resolve({ ...current, ...(model ? { model } : {}) })
        if (!resolved.endpoint) throw new EvaluationError(resolved.unavailable ?? 'No model server is available.')
        if (model && resolved.endpoint.model !== model) throw new EvaluationError(`No detected model server serves ${model}; name its server (URL#${model}).`)
        return { endpoint: resolved.endpoint.baseUrl, model: resolved.endpoint.model }
      })
    )
  }

  const startProject = options.projectPath ?? (options.reopenLastProject ? lastProject() : undefined) ?? options.defaultProjectPath
  if (startProject) await open(startProject)

  const api: Glassbox = {
    store,
    session,
    waitForRun: (runId) => runs.wait(runId),
    send: ({ chatId, text, testMode, model }) => ask(chatId, text, {}, testMode, model),
    preview,

    async getProject() {
      return current?.info() ?? null
    },
    async openProject({ path }) {
      return (await open(path)).info()
    },
    async listChats({ search }) {
      return store.chats.list(session().projectId, search)
    },
    async createChat({ title, channel }) {
      return store.chats.create(session().projectId, { title, channel: channel ?? null })
    },
    async getChat({ chatId }) {
      return withRunErrors(store, store.chats.get(chatId))
    },
    async deleteChat({ chatId }) {
      store.chats.delete(chatId)
    },
    async forkChat({ chatId, messageId, selection }) {
      return store.chats.fork(chatId, messageId, selection)
    },
    async sendMessage({ chatId, text, attachments, skill, tables }) {
      const { runId } = await ask(chatId, text, { attachments, skill, tables })
      return { runId }
    },
    async stopRun({ runId }) {
      runs.stop(runId)
    },
    async regenerate({ chatId }) {
      const messages = store.chats.get(chatId).messages
      const lastUser = [...messages].reverse().find((message) => message.role === 'user')
      if (!lastUser) throw new Error('Nothing to regenerate: this chat has no question yet.')
      // The earlier answer stays as a version; the question is asked again as the next version.
      const { turnId } = store.chats.archiveMessagesFrom(chatId, lastUser.id)
      const { runId } = await ask(chatId, lastUser.text, {}, undefined, undefined, turnId)
      return { runId }
    },
    async editAndResend({ chatId, messageId, text }) {
      const { turnId } = store.chats.archiveMessagesFrom(chatId, messageId)
      const { runId } = await ask(chatId, text, {}, undefined, undefined, turnId)
      return { runId }
    },
    async renameChat({ chatId, title }) {
      return store.chats.rename(chatId, title)
    },
    async answerClarification({ chatId, answer }) {
      const { runId } = await ask(chatId, answer, {})
      return { runId }
    },
    previewPrompt: (input) => preview(input),
    async getRun({ runId }) {
      return store.runs.get(runId)
    },
    async listMemories() {
      return store.memories.list(session().projectId)
    },
    async addMemory({ category, content }) {
      return store.memories.add(session().projectId, { category, content, chatId: null })
    },
    async editMemory({ id, content }) {
      return store.memories.edit(session().projectId, id, content)
    },
    async setMemoryEnabled({ id, enabled }) {
      return store.memories.setEnabled(session().projectId, id, enabled)
    },
    async deleteMemory({ id }) {
      store.memories.delete(session().projectId, id)
    },
    async getSettings() {
      return settings()
    },
    async updateSettings(patch) {
      if (patch.endpoint !== undefined || patch.model !== undefined) preselected = { endpoint: null, model: null }
      store.settings.update(current?.projectId ?? null, patch)
      return settings()
    },
    async listModels() {
      return listModelServers(settings().endpoint)
    },
    async runTests({ names }) {
      const files = names && (await evaluations.listCases()).filter((item) => names.includes(item.name) || names.includes(item.file)).map((item) => item.file)
      const detail = await evaluations.run({ models: await evaluationModels(undefined), files })
      const run = detail.runs[0]
      return { passed: run?.passed ?? 0, failed: run?.failed ?? 0, errored: run?.errored ?? 0, cases: run?.cases ?? [] }
    },
    async listTestCases() {
      return evaluations.listCases()
    },
    async listDataSources() {
      return session().databases().list().map(describeDataSource)
    },
    async runEvaluation({ models: requested, files, evaluationId, timeoutSeconds }) {
      return evaluations.run({ models: await evaluationModels(requested), files, evaluationId, timeoutMs: timeoutSeconds && timeoutSeconds * 1000 })
    },
    async cancelEvaluation({ evaluationId }) {
      evaluations.cancel(evaluationId)
    },
    async listEvaluations() {
      return store.evaluations.list(session().projectId)
    },
    async getEvaluation({ evaluationId }) {
      return evaluations.detail(evaluationId)
    },
    async compareEvaluations({ before, after }) {
      return evaluations.compare(before, after)
    },
    async syncProject() {
      const controller = new AbortController()
      syncs.add(controller)
      try {
        const { syncProject } = await import('../data/sync')
        const result = await syncProject(session().snapshot().root, {
          signal: controller.signal,
          onProgress: (progress) => push({ channel: 'sync-progress', progress })
        })
        return { tables: result.tables, changed: result.changed, changedBySomeoneElse: result.changedBySomeoneElse, errors: result.errors }
      } finally {
        syncs.delete(controller)
      }
    },
    async cancelSync() {
      for (const controller of syncs) controller.abort()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      evaluations.close()
      await runs.stopAll()
      await Promise.all(extractions)
      stopWatching()
      await current?.close()
      current = null
      listeners.clear()
      store.close()
    }
  }
  return api
}

/** A failed answer carries its run's error, said once beside whatever the model wrote before it failed. */
function withRunErrors(store: Store, chat: ChatDetail): ChatDetail {
  if (!chat.messages.some((message) => message.status === 'failed' && message.runId)) return chat
  return {
    ...chat,
    messages: chat.messages.map((message) => {
      if (message.status !== 'failed' || !message.runId) return message
      const error = store.runs.getRecord(message.runId).error
      return error ? { ...message, error } : message
    })
  }
}

function modelView({ id, contextWindow, contextSource, vision, tools }: ModelInfo): ModelServerView['models'][number] {
  return { id, contextWindow, vision, tools, ...(contextWindow ? { contextSource } : {}) }
}

/** Every preset server (running or not, so the picker can say how to start one) plus a configured one. */
async function listModelServers(configured: string | null): Promise<ModelServerView[]> {
  const detected = await detectServers({ timeoutMs: 800 })
  const views: ModelServerView[] = SERVER_PRESETS.map((preset) => {
    const server = detected.find((candidate) => candidate.baseUrl === preset.baseUrl)
    return {
      preset: preset.kind,
      label: preset.label,
      baseUrl: preset.baseUrl,
      running: server !== undefined,
      models: (server?.models ?? []).map(modelView)
    }
  })
  if (configured && !views.some((view) => view.baseUrl === configured)) {
    try {
      const models = await listModels(configured, { timeoutMs: 1500 })
      views.unshift({ preset: 'custom', label: 'Configured server', baseUrl: configured, running: true, models: models.map(modelView) })
    } catch (error) {
      views.unshift({ preset: 'custom', label: 'Configured server', baseUrl: configured, running: false, models: [], error: errorMessage(error) })
    }
  }
  return views
}
