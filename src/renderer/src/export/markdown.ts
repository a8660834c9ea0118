import type { ChatMessageView, ToolCallView } from '../../../shared/api'
import { queryLabel } from '../components/common/plain-words'
import { formatCell, formatDuration, formatNumber } from '../state/locale'
import { readChart, readTable, sqlOf, type ChartSpec, type TableData } from '../state/tool-data'

// A chat as one Markdown file a person can read anywhere: each question, then the answer with its SQL, the
// rows the query returned (as a table), its charts (as embedded PNG images) and its citations resolved to
// footnotes naming the query and column. Pure except for drawing charts, which the caller provides.
// Text from the model, the data and the project is never live HTML in the file (Markdown viewers render raw
// HTML): `<` is written as `&lt;` outside code, and names in code spans cannot close their span early.

export interface ChatExportInput {
  title: string
  projectName: string | null
  messages: ChatMessageView[]
  exportedAt: Date
  /** PNG data URL of a chart, or null when it cannot be drawn. */
  chartImage(spec: ChartSpec): Promise<string | null>
}

/** Rows written per table; the file says how many more the query returned. */
export const MAX_EXPORT_ROWS = 1000

const CITATION = /<citation-number\s+id="([^"]*)"\s+column="([^"]*)"\s*>([^<]*)<\/citation-number>/g

export async function chatToMarkdown(input: ChatExportInput): Promise<string> {
  const tables = new Map<string, TableData>()
  for (const message of input.messages) {
    for (const call of message.toolCalls ?? []) {
      const table = call.name === 'execute_sql' ? readTable(call.data) : null
      if (table?.queryId) tables.set(table.queryId, table)
    }
  }
  const sqlByQuery = new Map<string, string>()
  for (const message of input.messages) for (const call of message.toolCalls ?? []) {
    const table = call.name === 'execute_sql' ? readTable(call.data) : null
    const sql = sqlOf(call)
    if (table?.queryId && sql) sqlByQuery.set(table.queryId, sql)
  }

  const out: string[] = [`# ${inline(input.title)}`, '', `*Exported from Glassbox on ${input.exportedAt.toLocaleString()}${input.projectName ? ` · project ${inline(input.projectName)}` : ''}.*`, '']
  const footnotes: string[] = []
  let question = 0
  for (const message of input.messages) {
    if (message.role === 'user') {
      question++
      out.push(`## Question ${question}`, '', escapeHtmlOutsideCode(message.text.trim()), '')
      continue
    }
    out.push('### Answer', '')
    const figures = figuresLine(message)
    if (figures) out.push(`*${figures}*`, '')
    for (const call of message.toolCalls ?? []) {
      if (call.name === 'execute_sql') out.push(...sqlSection(call))
      if (call.name === 'display_chart') {
        const spec = readChart(call, { get: (queryId) => tables.get(queryId) })
        if (!spec) continue
        const image = await input.chartImage(spec)
        out.push(image ? `![${escapeAlt(spec.title)}](${image})` : `*Chart "${inline(spec.title)}" could not be drawn.*`, '', `*Chart drawn from ${queryLabel(spec.queryId)}${spec.queryId ? ` (${codeSpan(spec.queryId)})` : ''}.*`, '')
      }
      if (call.name === 'clarification') {
        const question = typeof call.args.question === 'string' ? call.args.question : ''
        if (question) out.push(`> **Asked back:** ${inline(question)}`, '')
      }
    }
    const text = message.text.replace(CITATION, (_match, queryId: string, column: string, value: string) => {
      const sql = sqlByQuery.get(queryId)
      footnotes.push(`[^${footnotes.length + 1}]: ${inline(value)} comes from ${queryLabel(queryId)} (${codeSpan(queryId)}), column ${codeSpan(column)}${sql ? `: ${codeSpan(oneLine(sql))}` : ''}.`)
      return `${value.trim()}[^${footnotes.length}]`
    })
    if (text.trim()) out.push(escapeHtmlOutsideCode(text.trim()), '')
    if (message.status === 'cancelled') out.push('*Stopped before the answer was complete.*', '')
    if (message.status === 'failed') out.push(`*The run failed${message.error ? `: ${inline(message.error)}` : '.'}*`, '')
  }
  if (footnotes.length > 0) out.push('---', '', ...footnotes, '')
  return out.join('\n')
}

function sqlSection(call: ToolCallView): string[] {
  const sql = sqlOf(call) ?? ''
  const table = readTable(call.data)
  const lines = [`**${table?.queryId ? `${capitalize(queryLabel(table.queryId))} (${codeSpan(table.queryId)})` : 'SQL'}**${call.ok === false ? ' — failed' : ''}`, '', fence(sql, 'sql'), '']
  if (call.ok === false) return [...lines, fence(call.output, 'text'), '']
  if (!table) return lines
  if (table.rows.length === 0) return [...lines, '*The query returned no rows.*', '']
  lines.push(markdownTable(table), '')
  const more = Math.max(table.rowCount, table.rows.length) - Math.min(table.rows.length, MAX_EXPORT_ROWS)
  if (more > 0) lines.push(`*… ${formatNumber(more)} more rows not kept.*`, '')
  return lines
}

export function markdownTable(table: Pick<TableData, 'columns' | 'rows'>): string {
  const numeric = table.columns.map((_, index) => table.rows.length > 0 && table.rows.every((row) => row[index] === null || row[index] === undefined || typeof row[index] === 'number'))
  const header = `| ${table.columns.map(cellText).join(' | ')} |`
  const rule = `|${numeric.map((right) => (right ? ' ---: ' : ' --- ')).join('|')}|`
  const rows = table.rows.slice(0, MAX_EXPORT_ROWS).map((row) => `| ${table.columns.map((_, index) => cellText(formatCell(row[index]))).join(' | ')} |`)
  return [header, rule, ...rows].join('\n')
}

function figuresLine(message: ChatMessageView): string | null {
  const figures = message.figures
  if (!figures) return null
  const parts = [inline(figures.model)]
  if (figures.totalMs !== null) parts.push(formatDuration(figures.totalMs))
  if (figures.inputTokens !== null && figures.outputTokens !== null) parts.push(`${formatNumber(figures.inputTokens)} tokens in, ${formatNumber(figures.outputTokens)} out`)
  return parts.join(' · ')
}

/** A fence longer than any backtick run inside, so SQL or output containing ``` cannot end it early. */
function fence(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks}${language}\n${text}\n${ticks}`
}

function cellText(text: string): string {
  return escapeHtml(text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' '))
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Text on one line of the file, inert as HTML. */
function inline(text: string): string {
  return escapeHtml(oneLine(text))
}

function escapeHtml(text: string): string {
  return text.replace(/</g, '&lt;')
}

/** A code span that holds `text` whole: fenced by more backticks than any run inside, padded when it starts or ends with one. */
function codeSpan(text: string): string {
  const flat = oneLine(text)
  const ticks = '`'.repeat(Math.max(0, ...[...flat.matchAll(/`+/g)].map((match) => match[0].length)) + 1)
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : ''
  return `${ticks}${pad}${flat}${pad}${ticks}`
}

/** Markdown from the model with `<` escaped everywhere but in code blocks and code spans, where it is inert and shown as written. */
export function escapeHtmlOutsideCode(markdown: string): string {
  const out: string[] = []
  let fence: string | null = null
  let prose: string[] = []
  const flushProse = (): void => {
    if (prose.length === 0) return
    // A code span opens with a backtick run and closes at the next run of the same length.
    out.push(prose.join('\n').replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)|</g, (match) => (match === '<' ? '&lt;' : match)))
    prose = []
  }
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence === null && marker && !(marker[0] === '`' && line.slice(line.indexOf(marker) + marker.length).includes('`'))) {
      flushProse()
      fence = marker
      out.push(line)
    } else if (fence !== null) {
      out.push(line)
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null
    } else prose.push(line)
  }
  flushProse()
  return out.join('\n')
}

function escapeAlt(text: string): string {
  return escapeHtml(oneLine(text).replace(/[[\]]/g, ''))
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
