import { existsSync } from 'node:fs'
import { detectServers, listModels, type ModelInfo } from '../agent/discovery'
import { addedServers, apiKeyFor, normalizeBaseUrl, SERVER_PRESETS, type ServerPreset } from '../agent/endpoints'
import { resolveDataDir } from '../data-dir'
import { ContextWindowTooSmallError, DEFAULT_SAFETY_MARGIN_RATIO } from '../prompt/budget'
import { openStore, type Store } from '../store'
import { keepTokenCountsIn } from '../prompt/tokens'
import { DEFAULT_CHAT_TITLE, titleFrom } from '../../shared/chat-title'
import type { ChatDetail, MemoryOutcome, ModelServerView, PushEvent, Settings } from '../../shared/api'
import type { PromptPreview } from '../../shared/prompt'
import type { Glassbox, PreviewOptions } from './glassbox'
import { RunManager, type StartedRun } from './chat-runs'
import { promptInputs } from './prompt-inputs'
import { EvaluationError } from './evaluation-error'
import { onFirstUse } from './on-first-use'
import type { EvalModel } from '../eval/run-evaluation'
import { describeMessageFiles, messageText, type MessageExtras } from './message-inputs'
import { ModelResolver } from './model-resolver'
import { describeListFailure, withoutLibraryLinks } from './run-failure'
import type { ExtractionResult } from '../memory/extract'
import { assemblePrompt, type PromptModelInfo } from './prompt-assembly'
import { ProjectSession } from './project-session'
import { TokenCalibration } from './token-calibration'
import type { TrustGateOptions } from '../trust'
import { describeDataSource } from '../engines/registry'

// The composition root: one set of services behind the API contract, shared by the desktop app (IPC),
// web mode (HTTP + SSE) and the command line. Nothing here imports Electron.

export type { Glassbox, PreviewOptions } from './glassbox'

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
  /** Without watching: read only what the system prompt shows (see loadProjectForPrompt), for one prompt preview. */
  readForPromptOnly?: boolean
  /** A better_sqlite3.node built for this runtime (the Electron app passes its own). */
  nativeBinding?: string
  /** Clock (tests pin it). */
  now?: () => Date
  /** Where to look for model servers when none is configured (tests point this at closed ports). */
  serverPresets?: readonly ServerPreset[]
  /** Learn memories from each user message in the background (default true). */
  extractMemories?: boolean
  /** How the project's requests beyond its folder are decided: `--trust-project`, or a question on a terminal. */
  trust?: TrustGateOptions
}



const RECENT_PROJECTS_KEY = 'recentProjects'
const MAX_RECENT_PROJECTS = 10

/** How a message is asked besides its text: what is attached, and what an evaluation or a resend pins. */
interface AskOptions {
  extras?: MessageExtras
  /** Over the settings' test mode (evaluations run in test mode). */
  testMode?: boolean
  /** An evaluation names its model; everything else comes from the settings. */
  model?: EvalModel
  /** The turn a resent or edited question replaces. */
  turnId?: string
}

export class NoProjectOpenError extends Error {
  constructor() {
    super('No project is open. Open a project folder first.')
    this.name = 'NoProjectOpenError'
  }
}

export async function createGlassbox(options: GlassboxOptions = {}): Promise<Glassbox> {
  const store = openStore(resolveDataDir(options.dataDir), { nativeBinding: options.nativeBinding })
  const forgetTokenCounts = keepTokenCountsIn(store.tokenCounts)
  // A run whose process was killed mid-way would otherwise show as still streaming for ever. A one-shot prompt
  // shows no runs and takes no write lock for them: the next start that shows runs marks them.
  if (!options.readForPromptOnly) store.runs.markInterrupted()
  const now = options.now ?? (() => new Date())
  const listeners = new Set<(event: PushEvent) => void>()
  const push = (event: PushEvent): void => {
    for (const listener of listeners) listener(event)
  }
  const models = new ModelResolver(options.serverPresets, new TokenCalibration(store.tokenScales), undefined, undefined, () => push({ channel: 'models-changed' }))
  const runs = new RunManager(store, push, models.calibration)
  // `--endpoint`/`--model` preselect the model for this session, over the saved setting, until the user
  // picks another one in the app.
  let preselected = { endpoint: options.endpoint ? normalizeBaseUrl(options.endpoint) : null, model: options.model ?? null }
  let openSession: ProjectSession | null = null
  /** Running syncs, so cancelSync can stop them. */
  const syncs = new Set<AbortController>()
  const extractions = new Set<Promise<unknown>>()
  let stopWatching: () => void = () => undefined

  const session = (): ProjectSession => {
    if (!openSession) throw new NoProjectOpenError()
    return openSession
  }
  const settings = (): Settings => {
    const stored = store.settings.read(openSession?.projectId ?? null)
    return { ...stored, endpoint: preselected.endpoint ?? stored.endpoint, model: preselected.model ?? stored.model }
  }

  async function open(path: string): Promise<ProjectSession> {
    // Set once open: the session's callbacks may fire while it opens (an MCP server starting), before it is current.
    let opened: ProjectSession | null = null
    const next = await ProjectSession.open(store, path, {
      watch: options.watch ?? true,
      readForPromptOnly: options.readForPromptOnly,
      trust: {
        ...options.trust,
        // The dialog opens with everything the project still asks, the refused request among them.
        onRefused: (request) => {
          options.trust?.onRefused?.(request)
          if (opened && openSession === opened) push({ channel: 'trust-requested', entries: opened.trustEntries().filter((entry) => !entry.approved) })
        }
      },
      onMcpChange: (status) => {
        if (opened && openSession === opened) push({ channel: 'mcp-changed', status })
      }
    })
    opened = next
    stopWatching()
    await openSession?.close()
    openSession = next
    stopWatching = next.onChange(() => push({ channel: 'project-changed', project: next.info() }))
    const root = next.snapshot().root
    const known = recentProjects()
    const recent = [root, ...known.filter((path) => path !== root)].slice(0, MAX_RECENT_PROJECTS)
    // Unchanged (the same project again): no write, so a one-shot command leaves the store file as it was.
    if (recent.join('\u0000') !== known.join('\u0000')) store.settings.setValue(RECENT_PROJECTS_KEY, recent, null)
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
  async function ask(chatId: string, text: string, askOptions: AskOptions = {}): Promise<StartedRun> {
    const { extras = {}, testMode, model: forModel, turnId } = askOptions
    const project = session()
    const snapshot = await project.freshSnapshot()
    const question = messageText(snapshot, text, extras.skill)
    const { files, images } = await describeMessageFiles(snapshot, extras)
    // An evaluation names its model; everything else comes from the settings.
    const current = forModel ? { ...settings(), endpoint: forModel.endpoint, model: forModel.model } : settings()
    // The run reads the whole chat once; naming it needs only its title and whether it is still empty.
    const untitled = store.chats.summary(chatId).title === DEFAULT_CHAT_TITLE && store.chats.recentMessages(chatId, 1).length === 0
    const userMessage = store.chats.addMessage({ chatId, role: 'user', text: question, status: 'done', turnId })
    // A new chat is named after its first question, so the sidebar tells chats apart.
    if (untitled) store.chats.rename(chatId, titleFrom(text))
    const model = await models.resolve(current)
    // Whatever the run connects to (the project's servers) is decided by this project's approvals.
    const started = await project.trusted(() => runs.start({
      session: project,
      chatId,
      userMessageId: userMessage.id,
      question,
      files,
      images,
      settings: current,
      model,
      testMode: testMode ?? current.testMode,
      now: now(),
      rereadWindow: () => (model.endpoint ? models.reread(model.endpoint) : Promise.resolve(null))
    }))
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
          const outcome = memoryOutcome(result)
          if (outcome) push({ channel: 'memory-outcome', chatId, runId: started.runId, outcome })
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
    const snapshot = await project.freshSnapshot()
    const current = input.model ? { ...settings(), endpoint: input.model.endpoint, model: input.model.model } : settings()
    const testMode = input.testMode ?? current.testMode
    const chat = input.chatId ? store.chats.get(input.chatId) : null
    const extras = { attachments: input.attachments, tables: input.tables, skill: input.skill }
    const { files, images } = await describeMessageFiles(snapshot, extras)
    const inputs = promptInputs({
      store,
      projectId: project.projectId,
      project: snapshot,
      chat,
      earlier: chat?.messages ?? [],
      question: input.question.trim() === '' ? '' : messageText(snapshot, input.question, input.skill),
      files,
      images,
      testMode,
      now: input.now ?? now(),
      timezone: input.timezone ?? current.timezone,
      channel: input.channel !== undefined ? input.channel : (chat?.channel ?? current.channel),
      forkSelection: input.forkSelection ?? chat?.selection ?? null,
      projectTools: project.mcp.tools(),
      memory: { budgetTokens: input.memoryBudget ?? current.memoryBudget, memoryEnabled: current.memoryEnabled }
    })
    const assemble = (model: PromptModelInfo) => assemblePrompt({ ...inputs, model })
    const model = (input.resolveModel ? await models.resolve(current) : await models.peekSoon(current)).info
    const mcpTools = project.mcpStatus().servers.flatMap((server) => server.tools)
    try {
      const { preview } = assemble(model)
      return mcpTools.length > 0 ? { ...preview, mcpTools } : preview
    } catch (error) {
      if (!(error instanceof ContextWindowTooSmallError)) throw error
      // The inspector still shows what would be sent, against the real window, and why it will not be.
      const unfitted = assemble({ ...model, contextWindow: Number.MAX_SAFE_INTEGER }).preview
      return {
        ...unfitted,
        ...(mcpTools.length > 0 ? { mcpTools } : {}),
        budget: unfitted.budget && {
          ...unfitted.budget,
          contextWindow: model.contextWindow,
          safetyMargin: Math.ceil(model.contextWindow * DEFAULT_SAFETY_MARGIN_RATIO)
        },
        diagnostics: [...unfitted.diagnostics, { file: 'context window', problem: error.message }]
      }
    }
  }

  // Evaluations and feedback load their code (YAML, the SQL parser, the case runner) when first used.
  const evaluations = onFirstUse(async () => {
    const { EvaluationService } = await import('./evaluation')
    return new EvaluationService({
      store,
      session,
      push,
      startRun: ({ chatId, prompt, model }) => ask(chatId, prompt, { testMode: true, model }),
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
  })

  const feedback = onFirstUse(async () => {
    const { FeedbackService } = await import('./feedback')
    return new FeedbackService({ store, session })
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
    send: ({ chatId, text, testMode, model }) => ask(chatId, text, { testMode, model }),
    preview,

    async getProject() {
      return openSession?.info() ?? null
    },
    async openProject({ path }) {
      return (await open(path)).info()
    },
    async listRecentProjects() {
      return recentProjects()
    },
    async listChats({ search }) {
      return store.chats.list(session().projectId, search)
    },
    async createChat({ title, channel }) {
      return store.chats.create(session().projectId, { title, channel: channel ?? null })
    },
    async getChat({ chatId }) {
      return withFeedback(store, withRunErrors(store, store.chats.get(chatId)))
    },
    async deleteChat({ chatId }) {
      store.chats.delete(chatId)
    },
    async forkChat({ chatId, messageId, selection }) {
      return store.chats.fork(chatId, messageId, selection)
    },
    async sendMessage({ chatId, text, attachments, skill, tables }) {
      const { runId } = await ask(chatId, text, { extras: { attachments, skill, tables } })
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
      const { runId } = await ask(chatId, lastUser.text, { turnId })
      return { runId }
    },
    async editAndResend({ chatId, messageId, text }) {
      const { turnId } = store.chats.archiveMessagesFrom(chatId, messageId)
      const { runId } = await ask(chatId, text, { turnId })
      return { runId }
    },
    async renameChat({ chatId, title }) {
      return store.chats.rename(chatId, title)
    },
    async answerClarification({ chatId, answer }) {
      const { runId } = await ask(chatId, answer)
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
      store.settings.update(openSession?.projectId ?? null, patch)
      return settings()
    },
    async listModels() {
      return listModelServers(settings(), (baseUrl, served) => models.learn(baseUrl, served))
    },
    async listEvaluationCases() {
      return (await evaluations.get()).listCases()
    },
    async listDataSources() {
      return session().databases().list().map(describeDataSource)
    },
    async runEvaluation({ models: requested, files, evaluationId, timeoutSeconds }) {
      const models = await evaluationModels(requested)
      return session().trusted(async () => (await evaluations.get()).run({ models, files, evaluationId, timeoutMs: timeoutSeconds && timeoutSeconds * 1000 }))
    },
    async cancelEvaluation({ evaluationId }) {
      evaluations.loaded()?.cancel(evaluationId)
    },
    async listEvaluations() {
      return store.evaluations.list(session().projectId)
    },
    async getEvaluation({ evaluationId }) {
      return (await evaluations.get()).detail(evaluationId)
    },
    async compareEvaluations({ before, after }) {
      return (await evaluations.get()).compare(before, after)
    },
    async syncProject() {
      const controller = new AbortController()
      syncs.add(controller)
      try {
        const { syncProject } = await import('../data/sync')
        const project = session()
        const result = await project.trusted(() =>
          syncProject(project.snapshot().root, {
            signal: controller.signal,
            onProgress: (progress) => push({ channel: 'sync-progress', progress })
          })
        )
        return { tables: result.tables, changed: result.changed, changedBySomeoneElse: result.changedBySomeoneElse, errors: result.errors }
      } finally {
        syncs.delete(controller)
      }
    },
    async cancelSync() {
      for (const controller of syncs) controller.abort()
    },
    async setFeedback(input) {
      return (await feedback.get()).rate(input)
    },
    async listFeedback(filter) {
      return (await feedback.get()).list(filter)
    },
    async previewTestCase({ messageId, sql }) {
      return (await feedback.get()).draft(messageId, sql)
    },
    async saveTestCase({ messageId, sql }) {
      return (await feedback.get()).save(messageId, sql)
    },
    async initProject({ path, name }) {
      // Loaded on use: init opens the data files with DuckDB.
      const { applyInit, planInit } = await import('../init/init-project')
      const report = await applyInit(await planInit({ target: path, name }))
      const project = (await open(report.root)).info()
      const databases = report.databases.map(({ name, path, kind }) => ({ name, path, kind }))
      const summary = { root: report.root, name: report.name, databases, written: report.written, kept: report.kept, exampleSkipped: report.exampleSkipped, syncedTables: report.sync?.tables ?? null, syncErrors: report.sync?.errors ?? [] }
      return { summary, project }
    },
    async checkSetup() {
      const [{ runDoctor, DOCTOR_CHECKS }, { doctorContext }] = await Promise.all([import('../doctor'), import('../doctor/context')])
      return runDoctor(doctorContext(api, { endpoints: [], model: null }), DOCTOR_CHECKS)
    },
    async getTrust() {
      return session().trustEntries()
    },
    async approveTrust({ fingerprint }) {
      return session().approve(fingerprint)
    },
    async revokeTrust({ fingerprint }) {
      return session().revoke(fingerprint)
    },
    async getMcpStatus() {
      return session().mcpStatus()
    },
    async restartMcpServer({ name }) {
      return session().mcp.restart(name)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      evaluations.loaded()?.close()
      await runs.stopAll()
      await Promise.all(extractions)
      stopWatching()
      await openSession?.close()
      openSession = null
      listeners.clear()
      forgetTokenCounts()
      store.close()
    }
  }
  return api
}

/** Each rated answer carries its 👍 / 👎, so the chat shows it after a reload. */
function withFeedback(store: Store, chat: ChatDetail): ChatDetail {
  const rated = store.feedback.forChat(chat.id)
  if (rated.size === 0) return chat
  const mark = (message: ChatDetail['messages'][number]): ChatDetail['messages'][number] => {
    const found = rated.get(message.id)
    return found ? { ...message, feedback: { rating: found.rating, note: found.note, testCaseFile: found.testCaseFile } } : message
  }
  return { ...chat, messages: chat.messages.map(mark), ...(chat.versions ? { versions: chat.versions.map((version) => ({ ...version, messages: version.messages.map(mark) })) } : {}) }
}

/** What the chat says under an answer about the memories learned from it (nothing when it was not tried). */
function memoryOutcome(result: ExtractionResult): MemoryOutcome | null {
  switch (result.status) {
    case 'saved':
      return result.inserted.length > 0 ? { status: 'saved', memories: result.inserted } : { status: 'nothing' }
    case 'nothing':
      return { status: 'nothing' }
    case 'invalid':
      return { status: 'failed', reason: `the memory model's reply could not be read (${result.error})` }
    case 'failed':
      return { status: 'failed', reason: withoutLibraryLinks(result.error) }
    case 'skipped':
      return null
  }
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

/**
 * Every server Glassbox knows, running or not (so the picker can say how to start one): the ones the user
 * added, the presets (probed on loopback), and the configured endpoint when it is none of these.
 */
async function listModelServers(current: Settings, learn: (baseUrl: string, models: ModelInfo[]) => void): Promise<ModelServerView[]> {
  const added = current.endpoints ?? []
  const own = addedServers(added)
  const listOne = async (server: ServerPreset, timeoutMs: number): Promise<ModelServerView> => {
    try {
      const served = await listModels(server.baseUrl, { timeoutMs, kind: server.kind, ...(server.apiKey ? { apiKey: server.apiKey } : {}) })
      learn(server.baseUrl, served)
      return { preset: server.kind, label: server.label, baseUrl: server.baseUrl, running: true, models: served.map(modelView) }
    } catch (error) {
      return { preset: server.kind, label: server.label, baseUrl: server.baseUrl, running: false, models: [], error: describeListFailure(server.baseUrl, error) }
    }
  }
  // Added servers are listed wherever they are (the user named them); presets are probed on loopback only.
  const presets = SERVER_PRESETS.filter((preset) => !own.some((server) => server.baseUrl === preset.baseUrl))
  const [ownViews, detected] = await Promise.all([Promise.all(own.map((server) => listOne(server, 1500))), detectServers({ timeoutMs: 800, presets })])
  for (const server of detected) learn(server.baseUrl, server.models)
  const presetViews: ModelServerView[] = presets.map((preset) => {
    const server = detected.find((candidate) => candidate.baseUrl === preset.baseUrl)
    return { preset: preset.kind, label: preset.label, baseUrl: preset.baseUrl, running: server !== undefined, models: (server?.models ?? []).map(modelView) }
  })
  const views = [...ownViews, ...presetViews]
  const configured = current.endpoint
  if (configured && !views.some((view) => view.baseUrl === configured)) {
    const apiKey = apiKeyFor(configured, added)
    views.unshift(await listOne({ kind: 'custom', label: 'Configured server', baseUrl: configured, ...(apiKey ? { apiKey } : {}) }, 1500))
  }
  return views
}
