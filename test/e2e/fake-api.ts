import { isAbsolute, relative, resolve } from 'node:path'
import type {
  ApiInputs,
  ChatDetail,
  ChatMessageView,
  ChatSummary,
  GlassboxApi,
  MemoryView,
  ModelServerView,
  ProjectInfo,
  PushEvent,
  Settings,
  ToolCallView,
  EvaluationCaseResult,
  EvaluationDetail,
  EvaluationModelRun,
  FeedbackView
} from '../../src/shared/api'
import type { RunEvent } from '../../src/shared/events'
import type { CellValue, ExecuteSqlResult } from '../../src/shared/tools'
import { buildMatrix, compareEvaluations } from '../../src/main/eval/matrix'
import type { RequestMessage } from '../../src/shared/prompt'
import { buildFakePreview } from './fake-prompt'
import type { McpStatus, TrustEntryView } from '../../src/shared/trust'

// A deterministic GlassboxApi for UI tests: the nao example's shape, a seeded chat, scripted runs streamed
// as real RunEvents (reasoning, text deltas, an execute_sql call with rows, a chart, follow-ups), memories,
// tests and sync progress. Questions steer the script: "clarify" asks back, "html" answers with raw HTML,
// "slow" streams slowly enough to be stopped.

export interface FakeApiOptions {
  /** Milliseconds between streamed chunks (default 15). */
  chunkDelayMs?: number
  /** Seed one chat with this many messages (for virtualisation tests). */
  bigChatMessages?: number
  /** Start with no project open. */
  noProject?: boolean
  /** No model server running. */
  noModels?: boolean
  /** Seed a heavy chat: 20 answers, each with a 500-row query result and a chart of it (long-task test). */
  heavyChat?: boolean
  /** Seed a chat with a malformed citation link and an answer whose stored tool call is corrupt. */
  hostileChat?: boolean
}

export const FAKE_PROJECT_ROOT = '/projects/nao-example'

const TABLES = ['customers', 'orders', 'raw_customers', 'raw_orders', 'raw_payments', 'stg_customers', 'stg_orders', 'stg_payments']

const MONTHLY_ROWS: CellValue[][] = [
  ['2018-01', 12.4, 38],
  ['2018-02', 14.1, 42],
  ['2018-03', 19.7, 57],
  ['2018-04', 24.9, 62]
]

function project(): ProjectInfo {
  return {
    root: FAKE_PROJECT_ROOT,
    name: 'example',
    tables: TABLES.map((table) => ({ type: 'duckdb', database: 'jaffle_shop', schema: 'main', table })),
    skills: [
      { name: 'revenue-analysis', description: 'Break revenue down by period and payment method', location: 'agent/skills/revenue-analysis.md' },
      { name: 'cohort-retention', description: 'Monthly cohort retention of customers', location: 'agent/skills/cohort-retention.md' }
    ],
    tests: ['total_revenue', 'orders_per_status'],
    diagnostics: [{ file: 'agent/mcps/mcp.json', problem: 'MCP servers are listed but not started (not required offline).' }]
  }
}

const SQL = "SELECT strftime(order_date, '%Y-%m') AS month, SUM(amount) AS revenue_k, COUNT(*) AS orders\nFROM orders\nGROUP BY 1\nORDER BY 1"

function sqlCall(callId: string): ToolCallView {
  return {
    callId,
    name: 'execute_sql',
    args: { sql_query: SQL, database_id: 'jaffle_shop' },
    ok: true,
    output: '| month | revenue_k | orders |\n|---|---|---|\n| 2018-01 | 12.4 | 38 |\n… 3 more rows',
    data: sqlResult('q1', SQL, ['month', 'revenue_k', 'orders'], MONTHLY_ROWS)
  }
}

/** A result as execute_sql returns it, every row kept and shown. */
function sqlResult(queryId: string, sql: string, columns: string[], rows: CellValue[][]): ExecuteSqlResult {
  return { queryId, databaseId: 'jaffle_shop', sql, engine: 'duckdb', columns, rows, totalRows: rows.length, shownRows: Math.min(rows.length, 50) }
}

function chartCall(callId: string): ToolCallView {
  const args = { query_id: 'q1', chart_type: 'bar', x_axis_key: 'month', x_axis_type: 'category', series: [{ data_key: 'revenue_k', label: 'Revenue (k$)' }], title: 'Revenue by month' }
  return { callId, name: 'display_chart', args, ok: true, output: 'Chart displayed.', data: undefined }
}

const ANSWER =
  'Revenue grew every month in Q1 2018, from **$12.4k** in January to **$24.9k** in April (query `q1`, column `revenue_k`).\n\n| month | revenue (k$) | orders |\n|---|---:|---:|\n| 2018-01 | 12.4 | 38 |\n| 2018-02 | 14.1 | 42 |\n| 2018-03 | 19.7 | 57 |\n| 2018-04 | 24.9 | 62 |\n\nAverage order value rose from $326 to $402, so growth came from both more orders and bigger baskets: $\\text{AOV} = \\frac{\\text{revenue}}{\\text{orders}}$.\n\n```sql\n' +
  SQL +
  '\n```'

const HTML_ANSWER = 'Here is raw HTML the model wrote: <script>window.__pwned = true</script><img src=x onerror="window.__pwned=true"><b>bold?</b> and <iframe src="https://example.com"></iframe> — it must show as text.'

export interface FakeApi extends GlassboxApi {
  /** Every push event emitted so far (for assertions). */
  readonly pushed: PushEvent[]
  /** How long sendMessage and answerClarification take to accept a message (default 0): the "Sending…" window. */
  acceptDelayMs: number
  close(): Promise<void>
}

export function createFakeApi(options: FakeApiOptions = {}): FakeApi {
  const chunkDelay = options.chunkDelayMs ?? 15
  const listeners = new Set<(event: PushEvent) => void>()
  const pushed: PushEvent[] = []
  const timers = new Set<NodeJS.Timeout>()
  const runs = new Map<string, { chatId: string; cancelled: boolean; assistant: ChatMessageView }>()
  const chats = new Map<string, ChatDetail>()
  let current: ProjectInfo | null = options.noProject ? null : project()
  let recentProjects: string[] = current ? [current.root] : []
  let nextId = 1
  let nextMemoryId = 4
  const now = (): string => new Date(Date.UTC(2026, 10, 29, 9, 0, nextId++)).toISOString()
  const newId = (prefix: string): string => `${prefix}-${nextId++}`
  const evaluations: EvaluationDetail[] = []

  let settings: Settings = {
    endpoint: options.noModels ? null : 'http://127.0.0.1:11434/v1',
    model: options.noModels ? null : 'qwen2.5-coder:7b',
    testMode: false,
    channel: null,
    timezone: 'Europe/Paris',
    memoryEnabled: true,
    memoryBudget: 1000,
    memoryModel: null,
    contextWindow: 32768
  }
  const memories: MemoryView[] = [
    memory(1, 'global_rule', 'Always show revenue in EUR as well as USD.'),
    memory(2, 'global_rule', 'Never include refunded orders in revenue unless asked.'),
    memory(3, 'personal_fact', 'The user is on the growth team and reports monthly to the CFO.')
  ]

  function memory(id: number, category: MemoryView['category'], content: string): MemoryView {
    const at = new Date(Date.UTC(2026, 10, id, 12)).toISOString()
    return { id, category, content, enabled: true, supersededBy: null, chatId: null, createdAt: at, updatedAt: at }
  }

  function emit(event: PushEvent): void {
    pushed.push(event)
    for (const listener of listeners) listener(event)
  }

  function seedChat(title: string, messages: ChatMessageView[], selection: string | null = null, parentChatId: string | null = null): ChatDetail {
    const chat: ChatDetail = { id: newId('chat'), title, channel: null, parentChatId, updatedAt: now(), selection, messages }
    chats.set(chat.id, chat)
    return chat
  }

  if (current) {
    seedChat('Revenue by month', [
      { id: newId('msg'), role: 'user', text: 'How did revenue evolve month by month?', createdAt: now() },
      {
        id: newId('msg'),
        role: 'assistant',
        text: ANSWER,
        reasoning: 'The user wants monthly revenue. orders has amount and order_date; group by month.',
        runId: 'run-seed',
        toolCalls: [sqlCall('seed-1'), chartCall('seed-2'), followUps('seed-3')],
        createdAt: now(),
        status: 'done',
        figures: { model: 'qwen2.5-coder:7b', firstTokenMs: 640, totalMs: 8210, inputTokens: 5230, outputTokens: 214 }
      }
    ])
    seedChat('Top customers', [
      { id: newId('msg'), role: 'user', text: 'Who are our top 5 customers by lifetime value?', createdAt: now() },
      { id: newId('msg'), role: 'assistant', text: 'The top 5 customers account for **18%** of revenue.', createdAt: now(), status: 'done' }
    ])
    if (options.bigChatMessages) {
      const messages: ChatMessageView[] = []
      for (let index = 0; index < options.bigChatMessages; index++) {
        const role = index % 2 === 0 ? 'user' : 'assistant'
        const text = role === 'user' ? `Question number ${index}: how many orders were placed on day ${index % 31}?` : `On day ${index % 31} there were **${(index * 7) % 97} orders**, ${index % 3 === 0 ? 'above' : 'below'} the monthly average.\n\n- completed: ${(index * 3) % 50}\n- returned: ${index % 5}`
        messages.push({ id: `big-${index}`, role, text, createdAt: now(), status: 'done' })
      }
      seedChat('Long analysis (5,000 messages)', messages)
    }
    if (options.heavyChat) seedChat('Heavy analysis (20 charts, 20 tables)', heavyMessages())
    if (options.hostileChat) seedChat('Hostile answers', hostileMessages())
  }

  function hostileMessages(): ChatMessageView[] {
    // As it could arrive over the wire from a damaged store: a tool call whose arguments are null.
    const corrupt: ChatMessageView = JSON.parse(
      JSON.stringify({ id: 'hostile-a1', role: 'assistant', text: 'RAW-TEXT-OF-THE-CORRUPT-ANSWER', createdAt: now(), status: 'done', toolCalls: [{ callId: 'hostile-read', name: 'read', args: null, ok: true, output: '' }] })
    )
    return [
      { id: 'hostile-u1', role: 'user', text: 'Read the notes file', createdAt: now() },
      corrupt,
      { id: 'hostile-u2', role: 'user', text: 'And the total?', createdAt: now() },
      { id: 'hostile-a2', role: 'assistant', text: 'The total is [42](#cite/%E0%A4%A) orders, and [7](#cite/q1/%) more.', createdAt: now(), status: 'done' }
    ]
  }

  function heavyMessages(): ChatMessageView[] {
    const messages: ChatMessageView[] = []
    for (let turn = 1; turn <= 20; turn++) {
      const queryId = `heavy_q${turn}`
      const rows = Array.from({ length: 500 }, (_, day) => [`2018-${String(1 + (day % 12)).padStart(2, '0')}-${String(1 + (day % 28)).padStart(2, '0')} #${day}`, Math.round((1000 + ((day * 37 * turn) % 9000)) * 100) / 100, (day * 13 + turn) % 250])
      const sql: ToolCallView = { callId: `heavy-sql-${turn}`, name: 'execute_sql', args: { sql_query: `SELECT day, revenue, orders FROM daily_revenue_${turn} ORDER BY day` }, ok: true, output: `500 rows (query_id: ${queryId})`, data: sqlResult(queryId, `SELECT day, revenue, orders FROM daily_revenue_${turn} ORDER BY day`, ['day', 'revenue', 'orders'], rows) }
      const chart: ToolCallView = { callId: `heavy-chart-${turn}`, name: 'display_chart', args: { query_id: queryId, chart_type: turn % 2 ? 'bar' : 'line', x_axis_key: 'day', x_axis_type: 'category', series: [{ data_key: 'revenue', label: 'Revenue' }], title: `Daily revenue, segment ${turn}` }, ok: true, output: 'Chart displayed.' }
      messages.push({ id: `heavy-u${turn}`, role: 'user', text: `Daily revenue for segment ${turn}?`, createdAt: now() })
      messages.push({ id: `heavy-a${turn}`, role: 'assistant', text: `Segment ${turn} made **$${(1234567 * turn).toLocaleString('en-US')}** over 500 days.\n\n| metric | value |\n|---|---:|\n| days | 500 |\n| revenue | ${1234567 * turn} |`, runId: `run-heavy-${turn}`, toolCalls: [sql, chart], createdAt: now(), status: 'done', figures: { model: 'qwen2.5-coder:7b', firstTokenMs: 420, totalMs: 6100, inputTokens: 6100, outputTokens: 180 } })
    }
    return messages
  }

  function followUps(callId: string): ToolCallView {
    const suggestions = ['Break revenue down by payment method', 'Compare with the same months last year', 'Which customers drove the April jump?']
    return { callId, name: 'suggest_follow_ups', args: { suggestions }, ok: true, output: 'Suggestions shown.', data: { suggestions } }
  }

  function requireProject(): ProjectInfo {
    if (!current) throw new Error('No project is open. Open a project folder first.')
    return current
  }

  function requireChat(chatId: string): ChatDetail {
    const chat = chats.get(chatId)
    if (!chat) throw new Error(`Chat ${chatId} does not exist.`)
    return chat
  }

  function summary(chat: ChatDetail): ChatSummary {
    return { id: chat.id, title: chat.title, channel: chat.channel, parentChatId: chat.parentChatId, updatedAt: chat.updatedAt }
  }

  function checkInsideProject(path: string): void {
    const root = requireProject().root
    const target = isAbsolute(path) ? path : resolve(root, path)
    const rel = relative(root, target)
    if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`Refused: "${path}" is outside the project folder ${root}.`)
  }

  function history(chat: ChatDetail): RequestMessage[] {
    return chat.messages.slice(-6).map((message) => ({ role: message.role, content: message.text }))
  }

  function schedule(steps: Array<() => void>, runId: string): void {
    let delay = 0
    for (const step of steps) {
      delay += chunkDelay
      const timer = setTimeout(() => {
        timers.delete(timer)
        if (!runs.get(runId)?.cancelled) step()
      }, delay)
      timers.add(timer)
    }
  }

  function startRun(chat: ChatDetail, question: string): { runId: string } {
    const runId = newId('run')
    const assistant: ChatMessageView = { id: newId('msg'), role: 'assistant', text: '', runId, toolCalls: [], createdAt: now(), status: 'streaming' }
    chat.messages.push(assistant)
    chat.updatedAt = now()
    runs.set(runId, { chatId: chat.id, cancelled: false, assistant })
    const run = (event: RunEvent): void => {
      applyToAssistant(assistant, event)
      emit({ channel: 'run', event })
    }
    const textSteps = (text: string, size: number): Array<() => void> => {
      const steps: Array<() => void> = []
      for (let at = 0; at < text.length; at += size) {
        const piece = text.slice(at, at + size)
        steps.push(() => run({ type: 'text-delta', runId, text: piece }))
      }
      return steps
    }
    const lower = question.toLowerCase()
    const steps: Array<() => void> = [() => run({ type: 'run-start', runId, chatId: chat.id, model: settings.model ?? 'none' })]
    if (lower.includes('html')) {
      steps.push(...textSteps(HTML_ANSWER, 24), () => finish(run, runId, 'answer', HTML_ANSWER))
    } else if (lower.includes('clarify') && !settings.testMode) {
      const args = { question: 'Which revenue do you mean?', options: ['Gross revenue (orders.amount)', 'Revenue net of coupons', 'Revenue by payment method'] }
      steps.push(
        () => run({ type: 'tool-start', runId, callId: 'c1', name: 'clarification', args }),
        () => run({ type: 'tool-end', runId, callId: 'c1', name: 'clarification', ok: true, output: 'Asked the user.', data: args }),
        () => finish(run, runId, 'stop-tool', '')
      )
    } else {
      const slow = lower.includes('slow')
      const sql = sqlCall(newId('call'))
      const chart = chartCall(newId('call'))
      const follow = followUps(newId('call'))
      steps.push(
        ...'Monthly revenue needs orders.amount grouped by order_date month.'.match(/.{1,16}/g)!.map((piece) => () => run({ type: 'reasoning-delta', runId, text: piece })),
        () => run({ type: 'tool-start', runId, callId: sql.callId, name: sql.name, args: sql.args }),
        () => run({ type: 'tool-end', runId, callId: sql.callId, name: sql.name, ok: true, output: sql.output, data: sql.data }),
        () => run({ type: 'tool-start', runId, callId: chart.callId, name: chart.name, args: chart.args }),
        () => run({ type: 'tool-end', runId, callId: chart.callId, name: chart.name, ok: true, output: chart.output }),
        ...textSteps(slow ? ANSWER.repeat(6) : ANSWER, slow ? 6 : 24),
        () => run({ type: 'tool-start', runId, callId: follow.callId, name: follow.name, args: follow.args }),
        () => run({ type: 'tool-end', runId, callId: follow.callId, name: follow.name, ok: true, output: follow.output, data: follow.data }),
        () => run({ type: 'usage', runId, inputTokens: 5230, outputTokens: 214 }),
        () => finish(run, runId, 'answer', assistant.text)
      )
    }
    schedule(steps, runId)
    return { runId }
  }

  /** As the store does: the question and what followed become an earlier version; the new one shares its turn. */
  function resend(chat: ChatDetail, messageId: string, text: string): { runId: string } {
    const index = chat.messages.findIndex((message) => message.id === messageId)
    if (index < 0) throw new Error(`Message ${messageId} is not in this chat.`)
    const turnId = chat.messages[index].turnId ?? messageId
    const archived = chat.messages.slice(index).map((message, at) => (at === 0 ? { ...message, turnId } : message))
    chat.versions = [...(chat.versions ?? []), { id: newId('version'), turnId, messages: archived }]
    chat.messages = chat.messages.slice(0, index)
    chat.messages.push({ id: newId('msg'), role: 'user', text, createdAt: now(), turnId })
    return startRun(chat, text)
  }

  function finish(run: (event: RunEvent) => void, runId: string, stopReason: 'answer' | 'stop-tool', answer: string): void {
    run({ type: 'end', runId, stopReason, answer })
  }

  function applyToAssistant(message: ChatMessageView, event: RunEvent): void {
    if (event.type === 'text-delta') message.text += event.text
    if (event.type === 'reasoning-delta') message.reasoning = (message.reasoning ?? '') + event.text
    if (event.type === 'tool-start') message.toolCalls = [...(message.toolCalls ?? []), { callId: event.callId, name: event.name, args: event.args, ok: null, output: '' }]
    if (event.type === 'tool-end') {
      message.toolCalls = (message.toolCalls ?? []).map((call) => (call.callId === event.callId ? { ...call, ok: event.ok, output: event.output, data: event.data } : call))
    }
    if (event.type === 'usage') message.figures = { model: settings.model ?? 'none', firstTokenMs: 412, totalMs: null, inputTokens: event.inputTokens, outputTokens: event.outputTokens }
    if (event.type === 'end') {
      message.status = event.stopReason === 'cancelled' ? 'cancelled' : event.stopReason === 'error' ? 'failed' : 'done'
      message.figures = { ...(message.figures ?? { model: settings.model ?? 'none', firstTokenMs: 412, inputTokens: null, outputTokens: null }), totalMs: 3870 }
    }
    if (event.type === 'error') message.status = 'failed'
  }

  const feedback = new Map<string, FeedbackView>()
  const acceptDelay = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, api.acceptDelayMs))

  // The fake project asks for nothing beyond its folder; test/e2e/ui-trust.test.ts drives trust on real services.
  let trust: TrustEntryView[] = []
  let mcp: McpStatus = { configFile: null, servers: [], problems: [] }

  const api: FakeApi = {
    pushed,
    acceptDelayMs: 0,
    async getProject() {
      return current
    },
    async openProject({ path }) {
      if (path.includes('missing')) throw new Error(`Cannot open "${path}": the folder does not exist.`)
      current = { ...project(), root: path, name: path.split('/').filter(Boolean).pop() ?? 'project' }
      recentProjects = [path, ...recentProjects.filter((item) => item !== path)].slice(0, 10)
      return current
    },
    async listRecentProjects() {
      return recentProjects
    },
    async listChats({ search }) {
      requireProject()
      const needle = search?.toLowerCase() ?? ''
      return [...chats.values()]
        .filter((chat) => chat.title.toLowerCase().includes(needle) || chat.messages.some((message) => message.text.toLowerCase().includes(needle)))
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .map(summary)
    },
    async createChat({ title, channel }) {
      requireProject()
      const chat = seedChat(title ?? 'New chat', [])
      chat.channel = channel ?? null
      return summary(chat)
    },
    async getChat({ chatId }) {
      const chat = requireChat(chatId)
      return { ...chat, messages: chat.messages.map((message) => ({ ...message })) }
    },
    async deleteChat({ chatId }) {
      requireChat(chatId)
      chats.delete(chatId)
    },
    async renameChat({ chatId, title }) {
      const chat = requireChat(chatId)
      chat.title = title.trim() || 'New chat'
      return summary(chat)
    },
    async forkChat({ chatId, selection }) {
      const parent = requireChat(chatId)
      return summary(seedChat(`Fork: ${selection.slice(0, 40)}`, [], selection, parent.id))
    },
    async sendMessage(input: ApiInputs['sendMessage']) {
      const chat = requireChat(input.chatId)
      for (const path of input.attachments ?? []) checkInsideProject(path)
      if (!settings.model) throw new Error('No model selected. Start a model server (e.g. `ollama serve`) and pick a model in the top bar.')
      chat.messages.push({ id: newId('msg'), role: 'user', text: input.text, createdAt: now() })
      if (chat.title === 'New chat') chat.title = input.text.slice(0, 60)
      await acceptDelay()
      return startRun(chat, input.text)
    },
    async stopRun({ runId }) {
      const run = runs.get(runId)
      if (!run || run.cancelled) return
      run.cancelled = true
      const event: RunEvent = { type: 'end', runId, stopReason: 'cancelled', answer: run.assistant.text }
      applyToAssistant(run.assistant, event)
      emit({ channel: 'run', event })
    },
    async regenerate({ chatId }) {
      const chat = requireChat(chatId)
      const lastUser = [...chat.messages].reverse().find((message) => message.role === 'user')
      if (!lastUser) throw new Error('Nothing to regenerate: the chat has no question yet.')
      return resend(chat, lastUser.id, lastUser.text)
    },
    async editAndResend({ chatId, messageId, text }) {
      return resend(requireChat(chatId), messageId, text)
    },
    async answerClarification({ chatId, answer }) {
      const chat = requireChat(chatId)
      chat.messages.push({ id: newId('msg'), role: 'user', text: answer, createdAt: now() })
      await acceptDelay()
      return startRun(chat, answer)
    },
    async previewPrompt(input) {
      requireProject()
      for (const path of input.attachments ?? []) checkInsideProject(path)
      const chat = input.chatId ? chats.get(input.chatId) : undefined
      return buildFakePreview({
        question: input.question,
        testMode: input.testMode ?? settings.testMode,
        memories,
        memoryBudget: input.memoryBudget ?? settings.memoryBudget,
        memoryEnabled: settings.memoryEnabled,
        history: chat ? history(chat) : [],
        skill: input.skill,
        tables: input.tables,
        attachments: input.attachments,
        contextWindow: settings.contextWindow ?? 8192,
        timezone: settings.timezone,
        channel: settings.channel
      })
    },
    async getRun({ runId }) {
      const run = runs.get(runId)
      if (!run) throw new Error(`Run ${runId} does not exist.`)
      return { id: runId, chatId: run.chatId, model: settings.model ?? '', endpoint: settings.endpoint ?? '', testMode: settings.testMode, status: run.assistant.status ?? 'done', stopReason: null, usage: null, prompt: null }
    },
    async listMemories() {
      return memories.map((item) => ({ ...item }))
    },
    async addMemory({ category, content }) {
      const created = { ...memory(nextMemoryId++, category, content), createdAt: now(), updatedAt: now() }
      memories.push(created)
      return created
    },
    async editMemory({ id, content }) {
      const found = memories.find((item) => item.id === id)
      if (!found) throw new Error(`Memory #${id} does not exist.`)
      found.content = content
      found.updatedAt = now()
      return { ...found }
    },
    async setMemoryEnabled({ id, enabled }) {
      const found = memories.find((item) => item.id === id)
      if (!found) throw new Error(`Memory #${id} does not exist.`)
      found.enabled = enabled
      return { ...found }
    },
    async deleteMemory({ id }) {
      const index = memories.findIndex((item) => item.id === id)
      if (index < 0) throw new Error(`Memory #${id} does not exist.`)
      memories.splice(index, 1)
    },
    async getSettings() {
      return { ...settings }
    },
    async updateSettings(input) {
      settings = { ...settings, ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) }
      return { ...settings }
    },
    async listModels(): Promise<ModelServerView[]> {
      if (options.noModels) {
        return [
          { preset: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', running: false, models: [], error: 'connection refused' },
          { preset: 'llamacpp', label: 'llama.cpp server', baseUrl: 'http://127.0.0.1:8080/v1', running: false, models: [], error: 'connection refused' }
        ]
      }
      return [
        {
          preset: 'ollama',
          label: 'Ollama',
          baseUrl: 'http://127.0.0.1:11434/v1',
          running: true,
          models: [
            { id: 'qwen2.5-coder:7b', contextWindow: 32768, vision: false, tools: true },
            { id: 'llama3.1:8b', contextWindow: 131072, vision: false, tools: true }
          ]
        },
        { preset: 'llamacpp', label: 'llama.cpp server', baseUrl: 'http://127.0.0.1:8080/v1', running: false, models: [], error: 'connection refused' }
      ]
    },
    async listDataSources() {
      requireProject()
      return [{ id: 'shop', engine: 'DuckDB', where: 'shop.duckdb', readOnly: 'the file is opened read-only' }]
    },
    // Evaluations: one scripted model's run over the project's cases, kept in memory.
    async listEvaluationCases() {
      return requireProject().tests.map((name) => ({ file: `tests/${name}.yml`, name, prompt: `The question of ${name}` }))
    },
    async runEvaluation({ models }) {
      const cases: EvaluationCaseResult[] = []
      for (const name of requireProject().tests) {
        await new Promise((done) => setTimeout(done, 120))
        const passed = name === 'total_revenue'
        const tokens = passed ? 5120 : 6004
        cases.push({
          name,
          file: `tests/${name}.yml`,
          status: passed ? 'passed' : 'failed',
          outcome: passed ? 'passed' : 'failed: wrong result',
          expected: passed ? [[1672]] : [['completed', 67], ['returned', 4]],
          actual: passed ? [[1672]] : [['completed', 67], ['returned', 5]],
          sql: passed ? 'SELECT SUM(amount) AS total_revenue FROM orders' : 'SELECT status, COUNT(*) FROM orders GROUP BY 1',
          runId: newId('run'),
          ms: passed ? 2140 : 3310,
          tokens,
          message: passed ? undefined : 'Row 2 differs: expected 4, got 5.',
          rounds: 2,
          inputTokens: tokens - 200,
          outputTokens: 200,
          firstTokenMs: 420,
          audit: passed ? null : { filesRead: ['RULES.md'], tables: [{ table: 'main.orders', dir: 'databases/type=duckdb/database=jaffle_shop/schema=main/table=orders', unread: ['columns.md'] }] }
        })
      }
      const report = { passed: cases.filter((item) => item.status === 'passed').length, failed: cases.filter((item) => item.status === 'failed').length, errored: 0 }
      const run: EvaluationModelRun = {
        model: models?.[0]?.model ?? 'qwen2.5-coder:7b',
        endpoint: models?.[0]?.endpoint ?? 'http://127.0.0.1:11434/v1',
        systemPromptHash: '5f2c0a9e1b7d3c44',
        systemPrompt: 'You are Glassbox, a data analyst.',
        passed: report.passed,
        failed: report.failed,
        errored: report.errored,
        cases
      }
      const detail: EvaluationDetail = {
        id: newId('eval'),
        status: 'done',
        startedAt: now(),
        endedAt: now(),
        models: [{ model: run.model, endpoint: run.endpoint, passed: run.passed, total: cases.length, systemPromptHash: run.systemPromptHash }],
        runs: [run],
        matrix: buildMatrix([run])
      }
      evaluations.unshift(detail)
      return detail
    },
    async cancelEvaluation() {},
    async listEvaluations() {
      return evaluations.map(({ runs: _runs, matrix: _matrix, ...summary }) => summary)
    },
    async getEvaluation({ evaluationId }) {
      const found = evaluations.find((item) => item.id === evaluationId)
      if (!found) throw new Error(`No evaluation ${evaluationId}.`)
      return found
    },
    async compareEvaluations({ before, after }) {
      return compareEvaluations(await api.getEvaluation({ evaluationId: before }), await api.getEvaluation({ evaluationId: after }))
    },
    async syncProject() {
      requireProject()
      for (let index = 0; index < TABLES.length; index++) {
        await new Promise((done) => setTimeout(done, 60))
        emit({ channel: 'sync-progress', progress: { done: index + 1, total: TABLES.length, table: TABLES[index] } })
      }
      return { tables: TABLES.length }
    },
    async cancelSync() {},
    async setFeedback({ messageId, rating, note }) {
      requireProject()
      const now = new Date().toISOString()
      const earlier = feedback.get(messageId)
      const entry: FeedbackView = { id: earlier?.id ?? feedback.size + 1, messageId, chatId: null, runId: null, rating, note: note ?? null, question: 'Fake question', answer: 'Fake answer', model: settings.model, sql: SQL, database: 'jaffle_shop', correctedSql: null, testCaseFile: earlier?.testCaseFile ?? null, createdAt: earlier?.createdAt ?? now, updatedAt: now }
      feedback.set(messageId, entry)
      return entry
    },
    async listFeedback({ rating }) {
      return [...feedback.values()].filter((entry) => !rating || entry.rating === rating).reverse()
    },
    async previewTestCase({ sql }) {
      const text = sql ?? SQL
      return { file: 'tests/fake_question.yml', yaml: `name: fake_question\nprompt: Fake question\nsql: ${text}\ndatabase: jaffle_shop\n`, name: 'fake_question', prompt: 'Fake question', sql: text, database: 'jaffle_shop' }
    },
    async saveTestCase({ messageId, sql }) {
      const entry = feedback.get(messageId) ?? (await api.setFeedback({ messageId, rating: 'up' }))
      const saved = { ...entry, testCaseFile: 'tests/fake_question.yml', correctedSql: sql ?? null }
      feedback.set(messageId, saved)
      return { file: 'tests/fake_question.yml', feedback: saved }
    },
    async initProject({ path, name }) {
      current = { ...project(), root: path, name: name ?? path.split('/').filter(Boolean).pop() ?? 'project' }
      const summary = { root: path, name: current.name, databases: [{ name: 'shop', path: 'shop.duckdb', kind: 'duckdb' }], written: ['nao_config.yaml', 'RULES.md', '.naoignore', 'tests/row_count_orders.yml'], kept: [], exampleSkipped: null, syncedTables: TABLES.length, syncErrors: [] }
      return { summary, project: current }
    },
    async checkSetup() {
      return {
        ok: !options.noModels,
        lines: [
          { id: 'project', title: 'Project files parse', status: 'pass', detail: `${FAKE_PROJECT_ROOT}: ${TABLES.length} tables, no problems` },
          options.noModels
            ? { id: 'model-server', title: 'Model server', status: 'fail', detail: 'No local model server is running.', fix: 'Start one, then try again.' }
            : { id: 'model-server', title: 'Model server', status: 'pass', detail: 'http://127.0.0.1:11434/v1 answers' }
        ]
      }
    },
    async getTrust() {
      requireProject()
      return trust
    },
    async approveTrust({ fingerprint }) {
      trust = trust.map((entry) => (entry.fingerprint === fingerprint ? { ...entry, approved: true, approvedAt: '2026-01-01T00:00:00.000Z' } : entry))
      mcp = { ...mcp, servers: mcp.servers.map((server) => (server.fingerprint === fingerprint ? { ...server, state: 'ready' } : server)) }
      return trust
    },
    async revokeTrust({ fingerprint }) {
      trust = trust.map((entry) => (entry.fingerprint === fingerprint ? { ...entry, approved: false, approvedAt: null } : entry))
      mcp = { ...mcp, servers: mcp.servers.map((server) => (server.fingerprint === fingerprint ? { ...server, state: 'not-approved' } : server)) }
      return trust
    },
    async getMcpStatus() {
      requireProject()
      return mcp
    },
    async restartMcpServer() {
      return mcp
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    async close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      listeners.clear()
    }
  }
  return api
}

