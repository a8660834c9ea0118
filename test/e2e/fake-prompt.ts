import type { MemoryView } from '../../src/shared/api'
import type { DroppedMemory, MemoryItem, PromptPreview, PromptSection, RequestMessage } from '../../src/shared/prompt'

// A believable PromptPreview for the fake API: the section layout of SPEC §2.2, memory trimming of §4 and a
// budget of §3.5, computed from the inputs so the inspector reacts to typing, test mode and the budget slider.

const tokensOf = (text: string): number => Math.ceil(text.length / 4)

interface SectionSpec {
  id: string
  title: string
  component: string
  sources: string[]
  body: string
}

export interface FakePromptInput {
  question: string
  testMode: boolean
  memories: MemoryView[]
  memoryBudget: number
  memoryEnabled: boolean
  history: RequestMessage[]
  skill?: string
  tables?: string[]
  attachments?: string[]
  contextWindow: number
  timezone: string
  channel: string | null
}

const RULES_MD =
  'We are a company that has jaffle shop, we are selling products to our customers. You have to help us to analyze the data and answer questions about the business.\n\nAlways be concise and to the point, explain the data and the business logic in a way that is easy to understand. If the user does not give enough details, ask for more details.'

function selectMemories(memories: MemoryView[], budget: number): { included: MemoryItem[]; dropped: DroppedMemory[] } {
  const included: MemoryItem[] = []
  const dropped: DroppedMemory[] = []
  let left = budget
  const order = ['global_rule', 'personal_fact'] as const
  for (const category of order) {
    const inCategory = memories
      .filter((memory) => memory.category === category && memory.enabled && memory.supersededBy === null)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    for (const memory of inCategory) {
      const item: MemoryItem = {
        id: memory.id,
        category: memory.category,
        content: memory.content,
        tokens: tokensOf(memory.content) + 2,
        chatId: memory.chatId,
        createdAt: memory.createdAt
      }
      if (item.tokens <= left) {
        included.push(item)
        left -= item.tokens
      } else {
        dropped.push({ ...item, reason: `needs ${item.tokens} tokens, ${left} left of the ${budget}-token memory budget` })
      }
    }
  }
  return { included, dropped }
}

function sectionSpecs(input: FakePromptInput, memory: { included: MemoryItem[]; dropped: DroppedMemory[] }): SectionSpec[] {
  const toolRules = [
    '- Call independent tools in parallel.',
    '- Run SQL whenever SQL can answer the question.',
    ...(input.testMode
      ? []
      : ['- When the request is genuinely ambiguous (several plausible tables, unclear period, undefined metric), ask with the `clarification` tool, never as plain text.'])
  ].join('\n')
  const specs: SectionSpec[] = [
    {
      id: 'instructions',
      title: 'Instructions',
      component: 'Instructions',
      sources: [],
      body: `# Instructions\n\nYou are an expert data analyst working on the user's local project "example". Today is **Sunday, 29 November 2026** (${input.timezone}). All context is in files in the project folder: read them before querying data.`
    },
    {
      id: 'context-structure',
      title: 'How Glassbox Works',
      component: 'ContextStructure',
      sources: ['RULES.md', 'databases/'],
      body: "## How Glassbox Works\n\n- `RULES.md`: the user's standing rules.\n- `databases/`: one folder per table, `type=<type>/database=<db>/schema=<s>/table=<t>/`.\n  - `columns.md`: read it before writing SQL; never guess columns.\n  - `preview.md`: a tiny sample; never infer distributions from it.\n  - `description.md`: what the table means.\n- `docs/`: free-form documentation."
    },
    {
      id: 'persona',
      title: 'Persona',
      component: 'Persona',
      sources: [],
      body: '## Persona\n\n- Efficient and proactive.\n- Professional: no emoji unless asked.\n- Direct, no filler.'
    },
    { id: 'tool-calls', title: 'Tool Calls', component: 'ToolCallRules', sources: [], body: `## Tool Calls\n\n${toolRules}` },
    {
      id: 'sql-rules',
      title: 'SQL Query Rules',
      component: 'SqlRules',
      sources: ['databases/type=duckdb'],
      body: '## SQL Query Rules\n\n- On error, fix and retry: use the file tools to find real names.\n- Never assume columns.\n- LIMIT caps what is returned, not what exists: count separately.\n- Numbers in answers come from queries run in this conversation.\n\n### DuckDB\n\n- Use `date_trunc` and `strftime` for dates; `QUALIFY` filters window results.'
    },
    {
      id: 'chart-rules',
      title: 'Chart Rules',
      component: 'ChartRules',
      sources: [],
      body: '## Chart Rules\n\n- Draw a chart with `display_chart` from a query you ran; pick the x axis and series from its columns.'
    },
    { id: 'user-rules', title: 'User Rules', component: 'UserRules', sources: ['RULES.md'], body: `## User Rules\n\n${RULES_MD}` },
    {
      id: 'connections',
      title: 'Current User Connections',
      component: 'Connections',
      sources: ['databases/type=duckdb/database=jaffle_shop'],
      body: '## Current User Connections\n\n- duckdb: jaffle_shop (jaffle_shop.duckdb)'
    },
    {
      id: 'skills',
      title: 'Skills',
      component: 'SkillsList',
      sources: ['agent/skills/revenue-analysis.md', 'agent/skills/cohort-retention.md'],
      body: '## Skills\n\n- revenue-analysis: Break revenue down by period and payment method (agent/skills/revenue-analysis.md)\n- cohort-retention: Monthly cohort retention of customers (agent/skills/cohort-retention.md)'
    }
  ]
  if (input.memoryEnabled && memory.included.length > 0) {
    const rules = memory.included.filter((item) => item.category === 'global_rule').map((item) => `- ${item.content}`)
    const facts = memory.included.filter((item) => item.category === 'personal_fact').map((item) => `- ${item.content}`)
    const leftOut = memory.dropped.length > 0 ? `\n\n(${memory.dropped.length} older memories were left out to fit the budget.)` : ''
    specs.push({
      id: 'memory',
      title: 'Memory',
      component: 'Memory',
      sources: memory.included.map((item) => `db:memories#${item.id}`),
      body: `## Memory\n\nEstablished in earlier conversations; newer instructions from the user win.\n\n${rules.length ? `### Global User Rules\n\n${rules.join('\n')}\n\n` : ''}${facts.length ? `### User Profile\n\n${facts.join('\n')}` : ''}`.trimEnd() + leftOut
    })
  }
  return specs
}

export function buildFakePreview(input: FakePromptInput): PromptPreview {
  const memory = input.memoryEnabled ? selectMemories(input.memories, input.memoryBudget) : { included: [], dropped: [] }
  const specs = sectionSpecs(input, memory)
  const sections: PromptSection[] = []
  let system = ''
  const trailingFrom = specs.findIndex((spec) => spec.id === 'user-rules')
  specs.forEach((spec, index) => {
    if (index > 0) system += index >= trailingFrom && trailingFrom > 0 ? '\n\n---\n\n' : '\n\n'
    const start = system.length
    system += spec.body
    sections.push({ id: spec.id, title: spec.title, component: spec.component, sources: spec.sources, start, end: system.length, tokens: tokensOf(spec.body) })
  })
  if (input.channel) system = `You are answering in ${input.channel}. Plan, execute silently, then write the output.\n\n${system}`

  const files = [...(input.tables ?? []).map((table) => ({ name: `${table}/columns.md`, fileId: `table:${table}`, type: 'text/markdown', summary: `Columns of ${table}` })), ...(input.attachments ?? []).map((path, index) => ({ name: path, fileId: `file-${index}`, type: 'text/plain', summary: '' }))]
  const skillBody = input.skill ? `\n\nSkill ${input.skill}:\nBreak revenue down by month, then by payment method. Use orders.amount.` : ''
  const user =
    files.length > 0
      ? `Use the provided context to answer.\n\n\`\`\`json\n${JSON.stringify({ files }, null, 2)}\n\`\`\`\n\nQuestion: ${input.question}${skillBody}`
      : `${input.question}${skillBody}`
  const messages: RequestMessage[] = [{ role: 'system', content: system, cache: true }, ...input.history, { role: 'user', content: user }]
  const toolsTokens = input.testMode ? 1180 : 1320
  const historyTokens = input.history.reduce((sum, message) => sum + tokensOf(typeof message.content === 'string' ? message.content : ''), 0)
  const reservedOutput = 2048
  const parts = [
    { name: 'system', tokens: tokensOf(system) },
    { name: 'tools', tokens: toolsTokens },
    { name: 'history', tokens: historyTokens },
    { name: 'user', tokens: tokensOf(user) },
    { name: 'output', tokens: reservedOutput }
  ]
  const trimmed = memory.dropped.map((item) => ({ part: 'memory', detail: `Memory #${item.id} "${item.content.slice(0, 40)}" (${item.reason})`, tokensSaved: item.tokens }))
  const diagnostics = [
    { file: 'nao_config.yaml', problem: 'notion.api_key uses a template ({{ env(…) }}); Notion is not used offline.' },
    { file: 'agent/mcps/mcp.json', problem: 'MCP servers are listed but not started (not required offline).' }
  ]
  return {
    system,
    user,
    messages,
    sections,
    memory,
    diagnostics,
    overrideMode: 'default',
    budget: { contextWindow: input.contextWindow, reservedOutput, used: parts.reduce((sum, part) => sum + part.tokens, 0), parts, trimmed }
  }
}
