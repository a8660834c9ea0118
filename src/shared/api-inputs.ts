import * as z from './zod-mini'
import { SERVER_KINDS } from './server-kinds'

// The inputs of every operation of the API (shared/api.ts), as schemas: each is validated where it crosses
// the boundary (IPC in the desktop app, HTTP in web mode). Kept apart from api.ts, whose types and constants
// the command line also needs: building these ~100 schemas took ~1.4 ms of every `glassbox prompt`.

const id = z.string().check(z.minLength(1), z.maxLength(200))
const text = (max: number) => z.string().check(z.maxLength(max))
/** A model server address: http(s) only, checked at the boundary (a `javascript:` URL must never get through). */
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address, e.g. http://127.0.0.1:11434/v1' }).check(z.maxLength(2000))

const chatExtrasInputs = {
  renameChat: z.strictObject({ chatId: id, title: text(500).check(z.minLength(1)) })
}

// Feedback on answers, and answers saved as test cases.
const rating = z.enum(['up', 'down'])
const feedbackInputs = {
  setFeedback: z.strictObject({ messageId: id, rating, note: z.optional(z.nullable(text(10_000))) }),
  listFeedback: z.strictObject({ rating: z.optional(rating), chatId: z.optional(id) }),
  /** The case an answer would become (its question, its last SQL or `sql`, its database), not yet written. */
  previewTestCase: z.strictObject({ messageId: id, sql: z.optional(text(100_000).check(z.minLength(1))) }),
  saveTestCase: z.strictObject({ messageId: id, sql: z.optional(text(100_000).check(z.minLength(1))) })
}

// Setting up: a new project from a folder of data, and the doctor's checks.
const setupInputs = {
  initProject: z.strictObject({ path: text(4096).check(z.minLength(1)), name: z.optional(text(200)) }),
  checkSetup: z.strictObject({})
}

// Trust on first use (what a project may do beyond its folder) and the project's MCP servers.
const trustInputs = {
  getTrust: z.strictObject({}),
  approveTrust: z.strictObject({ fingerprint: id }),
  revokeTrust: z.strictObject({ fingerprint: id }),
  getMcpStatus: z.strictObject({}),
  restartMcpServer: z.strictObject({ name: text(200).check(z.minLength(1)) })
}

export const apiInputs = {
  ...chatExtrasInputs,
  ...trustInputs,
  openProject: z.strictObject({ path: text(4096).check(z.minLength(1)) }),
  listChats: z.strictObject({ search: z.optional(text(500)) }),
  createChat: z.strictObject({ title: z.optional(text(500)), channel: z.optional(text(50)) }),
  getChat: z.strictObject({ chatId: id }),
  deleteChat: z.strictObject({ chatId: id }),
  forkChat: z.strictObject({ chatId: id, messageId: id, selection: text(100_000).check(z.minLength(1)) }),
  sendMessage: z.strictObject({
    chatId: id,
    text: text(2_000_000).check(z.minLength(1)),
    /** Project-relative or absolute paths of files the user attaches (metadata only reaches the prompt). */
    attachments: z.optional(z.array(text(4096)).check(z.maxLength(50))),
    /** Skill whose body is put into this message (typed `/name`). */
    skill: z.optional(text(200)),
    /** Tables referenced with `@`: their columns.md is attached as context. */
    tables: z.optional(z.array(text(1000)).check(z.maxLength(50)))
  }),
  stopRun: z.strictObject({ runId: id }),
  regenerate: z.strictObject({ chatId: id }),
  editAndResend: z.strictObject({ chatId: id, messageId: id, text: text(2_000_000).check(z.minLength(1)) }),
  answerClarification: z.strictObject({ chatId: id, answer: text(10_000).check(z.minLength(1)) }),
  previewPrompt: z.strictObject({
    chatId: z.optional(id),
    question: text(2_000_000),
    attachments: z.optional(z.array(text(4096)).check(z.maxLength(50))),
    skill: z.optional(text(200)),
    tables: z.optional(z.array(text(1000)).check(z.maxLength(50))),
    /** Preview memory trimming with another budget (tokens) without saving it. */
    memoryBudget: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(1_000_000))),
    /** Override the test-mode setting for this preview only (used for the on/off diff). */
    testMode: z.optional(z.boolean())
  }),
  getRun: z.strictObject({ runId: id }),
  listMemories: z.strictObject({}),
  addMemory: z.strictObject({ category: z.enum(['global_rule', 'personal_fact']), content: text(10_000).check(z.minLength(1)) }),
  editMemory: z.strictObject({ id: z.number().check(z.int(), z.positive()), content: text(10_000).check(z.minLength(1)) }),
  setMemoryEnabled: z.strictObject({ id: z.number().check(z.int(), z.positive()), enabled: z.boolean() }),
  deleteMemory: z.strictObject({ id: z.number().check(z.int(), z.positive()) }),
  updateSettings: z.strictObject({
    endpoint: z.optional(httpUrl),
    model: z.optional(text(500)),
    /** A smaller model on the same server for learning memories; null: the chat model. */
    memoryModel: z.optional(z.nullable(text(500))),
    testMode: z.optional(z.boolean()),
    channel: z.optional(z.nullable(text(50))),
    timezone: z.optional(text(100)),
    memoryEnabled: z.optional(z.boolean()),
    memoryBudget: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(1_000_000))),
    contextWindow: z.optional(z.nullable(z.number().check(z.int(), z.minimum(512), z.maximum(10_000_000)))),
    endpoints: z.optional(z.array(z.strictObject({ preset: z.enum(SERVER_KINDS), url: httpUrl, apiKey: z.optional(text(500)) })).check(z.maxLength(20)))
  }),
  syncProject: z.strictObject({}),
  // Evaluations (tests/*.yml across several models)
  listEvaluationCases: z.strictObject({}),
  listDataSources: z.strictObject({}),
  runEvaluation: z.strictObject({
    /** Models to evaluate; default: the current model. */
    models: z.optional(
      z.array(z.strictObject({ endpoint: z.optional(text(2000).check(z.url())), model: text(500).check(z.minLength(1)) })).check(z.minLength(1), z.maxLength(20))
    ),
    /** Only these cases (tests/*.yml paths); default: all. */
    files: z.optional(z.array(text(4096)).check(z.maxLength(1000))),
    /** Re-run into this evaluation (one cell or one column) instead of starting a new one. */
    evaluationId: z.optional(id),
    /** Per-case time limit in seconds (default 300). */
    timeoutSeconds: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(86_400)))
  }),
  cancelEvaluation: z.strictObject({ evaluationId: id }),
  listEvaluations: z.strictObject({}),
  getEvaluation: z.strictObject({ evaluationId: id }),
  compareEvaluations: z.strictObject({ before: id, after: id }),
  // Stop a running sync between tables (a running server query is cancelled at once).
  cancelSync: z.strictObject({}),
  ...feedbackInputs,
  ...setupInputs
} as const

export type ApiInputs = { [K in keyof typeof apiInputs]: z.infer<(typeof apiInputs)[K]> }
