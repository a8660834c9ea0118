import type { ApiInputs } from './api-inputs'
import type { ServerKind } from './server-kinds'
import type { RunEvent } from './events'
import type { Diagnostic, MemoryCategory, PromptPreview } from './prompt'
import type { McpStatus, TrustEntryView } from './trust'

// The API contract between the renderer and the main-process services. The desktop app carries it over
// IPC (one preload function per operation), web mode over loopback HTTP + server-sent events. Every input
// is validated where it crosses the boundary, with the schemas of api-inputs.ts.

export { SERVER_KINDS, type ServerKind } from './server-kinds'

export type { ApiInputs } from './api-inputs'

export interface ProjectInfo {
  root: string
  name: string
  tables: { type: string; database: string; schema: string; table: string }[]
  skills: { name: string; description: string; location: string }[]
  tests: string[]
  diagnostics: Diagnostic[]
  /** Questions to offer in an empty chat: the project's test prompts, then its tables. */
  examples?: string[]
}

export interface ChatSummary {
  id: string
  title: string
  channel: string | null
  parentChatId: string | null
  updatedAt: string
}

export interface ToolCallView {
  callId: string
  name: string
  args: Record<string, unknown>
  ok: boolean | null
  output: string
  /** The tool's structured result, typed per tool in src/shared/tools (read it with the renderer's tool-data). */
  data?: unknown
}

export interface ChatMessageView {
  id: string
  role: 'user' | 'assistant'
  text: string
  reasoning?: string
  runId?: string
  toolCalls?: ToolCallView[]
  createdAt: string
  status?: 'streaming' | 'done' | 'failed' | 'cancelled'
  /** Why the run failed (status 'failed'), in words the user can act on. */
  error?: string
  /** User message: the question this is a version of (its versions share it); absent before any version. */
  turnId?: string
  /** Assistant message: how its run went (model, timing, tokens), once the run is stored. */
  figures?: MessageFigures
  /** Assistant message: the user's 👍 / 👎 on it, if any. */
  feedback?: { rating: FeedbackRating; note: string | null; testCaseFile: string | null }
}

/** Per-answer figures shown under it. Times in milliseconds; null when not known (e.g. a run that never started). */
export interface MessageFigures {
  /** The model that answered, as the server reported it (else the one asked for). */
  model: string
  /** The model Glassbox asked for, when the server reported another one. */
  requestedModel?: string
  firstTokenMs: number | null
  totalMs: number | null
  inputTokens: number | null
  outputTokens: number | null
}

/** An earlier version of a question and what followed it, kept when the user regenerated or edited it. */
export interface ChatVersionView {
  id: string
  /** The `turnId` of the live user message it is a version of. */
  turnId: string
  messages: ChatMessageView[]
}

export interface ChatDetail extends ChatSummary {
  selection: string | null
  /** The message a fork was made from (its answer goes into the context block as an earlier result). */
  parentMessageId?: string | null
  messages: ChatMessageView[]
  /** Earlier versions of questions in `messages`, oldest first. */
  versions?: ChatVersionView[]
}

export interface RunDetail {
  id: string
  chatId: string
  model: string
  endpoint: string
  testMode: boolean
  status: string
  stopReason: string | null
  usage: { inputTokens: number; outputTokens: number } | null
  /** The model the server reported answering (its response's `model` field); null when it never said. */
  servedModel?: string | null
  prompt: PromptPreview | null
  /** When the run started, i.e. when its prompt was built (ISO-8601). */
  startedAt?: string
  /** Every request the run sent, round by round, exactly as it went over the wire (oldest first). */
  requests?: RunRequestView[]
}

/** One request of a run: the body the HTTP client sent, byte for byte. */
export interface RunRequestView {
  round: number
  url: string
  body: string
  sentAt: string
  /** This round's own token counts as the server reported them (absent: it did not). */
  usage?: { inputTokens: number; outputTokens: number }
  /** The model the server said answered this round. */
  servedModel?: string
}

export interface MemoryView {
  id: number
  category: MemoryCategory
  content: string
  enabled: boolean
  supersededBy: number | null
  chatId: string | null
  createdAt: string
  updatedAt: string
}

/** A model server the user added: its kind, address and the API key it wants (if any). */
export interface EndpointSetting {
  preset: ServerKind
  url: string
  apiKey?: string
}

export interface Settings {
  /** Model servers the user added (listed, detected and usable side by side); the presets need no entry. */
  endpoints?: EndpointSetting[]
  endpoint: string | null
  model: string | null
  /** Model that extracts memories (a smaller one is enough); null: the chat model. */
  memoryModel: string | null
  testMode: boolean
  channel: string | null
  timezone: string
  memoryEnabled: boolean
  memoryBudget: number
  contextWindow: number | null
}

/** A database execute_sql can reach, as settings lists it. */
export interface DataSourceView {
  /** The database_id the agent passes. */
  id: string
  /** The engine as people name it: "DuckDB", "MySQL / MariaDB". */
  engine: string
  /** Project-relative file (or glob), or host:port/database for a server. */
  where: string
  /** How the engine keeps every query read-only, in one sentence. */
  readOnly: string
}

export interface ModelServerView {
  preset: string
  label: string
  baseUrl: string
  running: boolean
  models: {
    id: string
    contextWindow: number | null
    vision: boolean | null
    tools: boolean | null
    /** Where contextWindow came from, in the inspector's words. */
    contextSource?: string
  }[]
  error?: string
}

// Evaluations: a suite run across several models, stored with per-case outcomes.

export const EVALUATION_OUTCOMES = [
  'passed',
  'failed: wrong result',
  'failed: no SQL',
  'error: tool',
  'error: loop guard',
  'error: round limit',
  'timeout',
  /** Not the model's answer: the case file is broken, the expected SQL failed, or the server failed. */
  'error: run'
] as const
export type EvaluationOutcome = (typeof EVALUATION_OUTCOMES)[number]

/** The coarse status `test --json` has always reported: passed, failed (a wrong or missing answer), error. */
export function statusOfOutcome(outcome: EvaluationOutcome): EvaluationCaseResult['status'] {
  if (outcome === 'passed') return 'passed'
  return outcome.startsWith('failed') ? 'failed' : 'error'
}

export interface EvaluationCaseInfo {
  /** Project-relative path, e.g. tests/total_revenue.yml: the case's identity. */
  file: string
  name: string
  prompt: string | null
  /** Why the file cannot be run (then prompt is null). */
  error?: string
}

/** What the agent read and what it should have: a cue for which context to add. */
export interface ContextAudit {
  /** Project files the agent read (read tool), in order, without repeats. */
  filesRead: string[]
  /** Tables the final SQL touched, each with its metadata files that exist but were never read. */
  tables: { table: string; dir: string | null; unread: string[] }[]
}

export interface EvaluationCaseResult {
  name: string
  /** The coarse status `test --json` reports (see statusOfOutcome); `outcome` says which failure. */
  status: 'passed' | 'failed' | 'error'
  expected: unknown[][] | null
  actual: unknown[][] | null
  sql: string | null
  runId: string | null
  ms: number
  tokens: number
  message?: string
  file: string
  outcome: EvaluationOutcome
  /** One line naming the rule that decided the outcome and where each side ran (absent in evaluations stored before verdict lines). */
  verdict?: string
  /** The deciding rule's id: rows-any-order, rows-in-order, row-count, columns, extra-columns, rows, row-order, … (null: decided outside the comparison). */
  rule?: string | null
  /** The database ids the expected SQL and the agent's last query ran on. */
  databases?: { expected: string | null; actual: string | null }
  /** 1-based: which of the case's acceptable SQLs the answer matched. */
  matchedSql?: number | null
  /** The case's `category:` (join, group_by, order_by, date, …). */
  category?: string | null
  rounds: number
  inputTokens: number
  outputTokens: number
  /** Time from sending the first request to the first streamed token; null when nothing streamed. */
  firstTokenMs: number | null
  audit: ContextAudit | null
}

export interface EvaluationModelRun {
  model: string
  endpoint: string
  systemPromptHash: string
  systemPrompt: string
  passed: number
  failed: number
  errored: number
  cases: EvaluationCaseResult[]
}

export interface EvaluationModelStats {
  model: string
  endpoint: string
  passed: number
  total: number
  /** passed / total, 0..1 (0 when nothing ran). */
  passRate: number
  medianMs: number | null
  /** Median tokens (in + out) per case. */
  medianTokens: number | null
}

export interface EvaluationMatrix {
  models: EvaluationModelStats[]
  /** One row per case; `cells` in the order of `models` (null: not run for that model). */
  cases: { file: string; name: string; category?: string | null; cells: ({ outcome: EvaluationOutcome; runId: string | null; ms: number; tokens: number; verdict?: string } | null)[] }[]
  /** Pass rates per case `category:` (cases without one are left out); `models` in the order of `models` above. */
  categories?: { category: string; models: { passed: number; total: number; passRate: number }[] }[]
}

export interface EvaluationSummary {
  id: string
  status: 'running' | 'done' | 'cancelled'
  startedAt: string
  endedAt: string | null
  models: { model: string; endpoint: string; passed: number; total: number; systemPromptHash: string }[]
}

export interface EvaluationDetail extends EvaluationSummary {
  runs: EvaluationModelRun[]
  matrix: EvaluationMatrix
}

export interface EvaluationComparison {
  before: EvaluationSummary
  after: EvaluationSummary
  /** Per case and model present in both. */
  changes: { file: string; name: string; model: string; before: EvaluationOutcome; after: EvaluationOutcome; change: 'fixed' | 'broke' | 'same' }[]
  fixed: number
  broke: number
  /** Line diff of the system prompts (the first model's of each); empty when identical. */
  promptDiff: { kind: 'same' | 'added' | 'removed'; text: string }[]
  promptChanged: boolean
}

export interface EvaluationProgress {
  evaluationId: string
  model: string
  endpoint: string
  /** 1-based. */
  modelIndex: number
  modelCount: number
  /** 1-based: the case running now (or just finished, with `result`). */
  caseIndex: number
  caseCount: number
  file: string
  name: string
  elapsedMs: number
  /** Estimated time left, from the cases finished so far; null before the first one. */
  estimateLeftMs: number | null
  result?: EvaluationCaseResult
}

/** What a sync did: files it wrote or removed, and files it left because it did not write them. */
export interface SyncSummary {
  tables: number
  /** Project-relative files written or removed. */
  changed?: string[]
  /** Project-relative files sync would have rewritten but did not write itself (e.g. nao's own preview.md). */
  changedBySomeoneElse?: string[]
  /** One line per database that failed (e.g. databases/ linked outside the project). */
  errors?: string[]
}

export interface SyncProgress {
  done: number
  total: number
  table: string
}

// Feedback on answers: 👍 / 👎 with a note, and answers saved as evaluation cases.

export type FeedbackRating = 'up' | 'down'

export interface FeedbackView {
  id: number
  /** Null once the chat it came from was deleted (the feedback itself is kept). */
  messageId: string | null
  chatId: string | null
  runId: string | null
  rating: FeedbackRating
  note: string | null
  question: string
  answer: string
  model: string | null
  /** The answer's last successful SQL, and the database it ran on. */
  sql: string | null
  database: string | null
  /** What the SQL should have been (👎 → saved as a case). */
  correctedSql: string | null
  /** tests/<slug>.yml, once saved as a test case. */
  testCaseFile: string | null
  createdAt: string
  updatedAt: string
}

/** A test case as it would be written, for review before saving. */
export interface TestCaseDraft {
  /** Project-relative path it would be written to (never an existing file). */
  file: string
  /** The file's exact text. */
  yaml: string
  name: string
  prompt: string
  sql: string
  database: string | null
}

/** What "New project…" (and `glassbox init`) did. */
export interface InitSummary {
  root: string
  name: string
  databases: { name: string; path: string; kind: string }[]
  written: string[]
  kept: string[]
  exampleSkipped: string | null
  syncedTables: number | null
  syncErrors: string[]
}

// `glassbox doctor` and the "Check setup" panel: one line per thing checked, with the fix for a ✗.

export interface CheckLine {
  /** Which check: project, tests, database, model-server, model, context-window, tools, output-cap, exact-count, store… */
  id: string
  title: string
  /** warn: worth knowing, not a fault (it does not fail the report). */
  status: 'pass' | 'fail' | 'warn'
  detail: string
  /** What to do, for a fail or a warn. */
  fix?: string
}

export interface DoctorReport {
  /** No line failed. */
  ok: boolean
  lines: CheckLine[]
}

/** Events pushed from main to the renderer besides request/response. */
export type PushEvent =
  | { channel: 'run'; event: RunEvent }
  | { channel: 'project-changed'; project: ProjectInfo }
  | { channel: 'sync-progress'; progress: SyncProgress }
  | { channel: 'evaluation-progress'; progress: EvaluationProgress }
  /** Memories learned in the background from a chat (the UI says so quietly, with undo). */
  | { channel: 'memory-learned'; chatId: string; memories: MemoryView[] }
  /** The project asked for something not approved yet (the trust dialog opens). */
  | { channel: 'trust-requested'; entries: TrustEntryView[] }
  /** An MCP server of the project started, failed, stopped or listed its tools. */
  | { channel: 'mcp-changed'; status: McpStatus }
  /** A server was found to run a model with another context window than before: the model list is stale. */
  | { channel: 'models-changed' }
  /** How learning memories from an answer ended, shown under that answer (saved ones also come as memory-learned). */
  | { channel: 'memory-outcome'; chatId: string; runId: string; outcome: MemoryOutcome }

export type MemoryOutcome =
  | { status: 'saved'; memories: MemoryView[] }
  | { status: 'nothing' }
  | { status: 'failed'; reason: string }

/** Every operation the UI can call: one function each, nothing generic. */
export interface GlassboxApi {
  getProject(): Promise<ProjectInfo | null>
  openProject(input: ApiInputs['openProject']): Promise<ProjectInfo>
  /** Project folders opened before, newest first (kept in the store, shared by the app, web mode and the CLI). */
  listRecentProjects(): Promise<string[]>
  listChats(input: ApiInputs['listChats']): Promise<ChatSummary[]>
  createChat(input: ApiInputs['createChat']): Promise<ChatSummary>
  getChat(input: ApiInputs['getChat']): Promise<ChatDetail>
  deleteChat(input: ApiInputs['deleteChat']): Promise<void>
  renameChat(input: ApiInputs['renameChat']): Promise<ChatSummary>
  forkChat(input: ApiInputs['forkChat']): Promise<ChatSummary>
  sendMessage(input: ApiInputs['sendMessage']): Promise<{ runId: string }>
  stopRun(input: ApiInputs['stopRun']): Promise<void>
  regenerate(input: ApiInputs['regenerate']): Promise<{ runId: string }>
  editAndResend(input: ApiInputs['editAndResend']): Promise<{ runId: string }>
  answerClarification(input: ApiInputs['answerClarification']): Promise<{ runId: string }>
  previewPrompt(input: ApiInputs['previewPrompt']): Promise<PromptPreview>
  getRun(input: ApiInputs['getRun']): Promise<RunDetail>
  listMemories(input: ApiInputs['listMemories']): Promise<MemoryView[]>
  addMemory(input: ApiInputs['addMemory']): Promise<MemoryView>
  editMemory(input: ApiInputs['editMemory']): Promise<MemoryView>
  setMemoryEnabled(input: ApiInputs['setMemoryEnabled']): Promise<MemoryView>
  deleteMemory(input: ApiInputs['deleteMemory']): Promise<void>
  getSettings(): Promise<Settings>
  updateSettings(input: ApiInputs['updateSettings']): Promise<Settings>
  listModels(): Promise<ModelServerView[]>
  syncProject(input: ApiInputs['syncProject']): Promise<SyncSummary>
  listEvaluationCases(input: ApiInputs['listEvaluationCases']): Promise<EvaluationCaseInfo[]>
  /** The databases the agent can query in this project, with how each engine keeps them read-only. */
  listDataSources(input: ApiInputs['listDataSources']): Promise<DataSourceView[]>
  /** Runs the suite for each model (one case at a time per server) and stores it; resolves when done or cancelled. */
  runEvaluation(input: ApiInputs['runEvaluation']): Promise<EvaluationDetail>
  cancelEvaluation(input: ApiInputs['cancelEvaluation']): Promise<void>
  listEvaluations(input: ApiInputs['listEvaluations']): Promise<EvaluationSummary[]>
  getEvaluation(input: ApiInputs['getEvaluation']): Promise<EvaluationDetail>
  compareEvaluations(input: ApiInputs['compareEvaluations']): Promise<EvaluationComparison>
  /** Stops the running sync, if any; the tables already written stay complete. */
  cancelSync(input: ApiInputs['cancelSync']): Promise<void>
  /** 👍 / 👎 on an answer (again: replaces it), with an optional note. */
  setFeedback(input: ApiInputs['setFeedback']): Promise<FeedbackView>
  listFeedback(input: ApiInputs['listFeedback']): Promise<FeedbackView[]>
  previewTestCase(input: ApiInputs['previewTestCase']): Promise<TestCaseDraft>
  /** Writes the case (never over an existing file) and records it on the answer's feedback. */
  saveTestCase(input: ApiInputs['saveTestCase']): Promise<{ file: string; feedback: FeedbackView }>
  /** Makes a project of a folder of data files (never overwriting a file), syncs it and opens it. */
  initProject(input: ApiInputs['initProject']): Promise<{ summary: InitSummary; project: ProjectInfo }>
  /** The doctor's checks on the open project, its databases, the configured model server and the store. */
  checkSetup(input: ApiInputs['checkSetup']): Promise<DoctorReport>
  /** What the open project asks to do beyond its folder, and what the user approved. */
  getTrust(input: ApiInputs['getTrust']): Promise<TrustEntryView[]>
  approveTrust(input: ApiInputs['approveTrust']): Promise<TrustEntryView[]>
  revokeTrust(input: ApiInputs['revokeTrust']): Promise<TrustEntryView[]>
  getMcpStatus(input: ApiInputs['getMcpStatus']): Promise<McpStatus>
  /** Stops and starts one MCP server again (a server not approved stays stopped). */
  restartMcpServer(input: ApiInputs['restartMcpServer']): Promise<McpStatus>
  /** Subscribe to pushed events; returns the unsubscribe function. */
  subscribe(listener: (event: PushEvent) => void): () => void
}
