import type { ToolCallView } from '../../../shared/api'

// Reads the structured `data` of tool results defensively: camelCase or snake_case keys, rows as arrays
// or objects, and the tool's own args as a fallback, so a small change in the services never blanks the UI.

export interface TableData {
  queryId: string | null
  columns: string[]
  rows: unknown[][]
  rowCount: number
}

export interface ChartSpec {
  queryId: string | null
  chartType: string
  xAxisKey: string
  series: { dataKey: string; label: string; color?: string }[]
  title: string
  table: TableData | null
}

type Json = Record<string, unknown>

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function pick(record: Json, ...keys: string[]): unknown {
  for (const key of keys) if (record[key] !== undefined) return record[key]
  return undefined
}

function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null
}

export function readTable(data: unknown): TableData | null {
  if (!isRecord(data)) return null
  const rawRows = pick(data, 'rows', 'data', 'records')
  if (!Array.isArray(rawRows)) return null
  const rawColumns = pick(data, 'columns', 'fields', 'column_names')
  let columns: string[] = Array.isArray(rawColumns)
    ? rawColumns.map((column) => (isRecord(column) ? (asString(pick(column, 'name', 'key')) ?? '?') : (asString(column) ?? '?')))
    : []
  if (columns.length === 0 && isRecord(rawRows[0])) columns = Object.keys(rawRows[0])
  const rows = rawRows.map((row): unknown[] => (Array.isArray(row) ? row : isRecord(row) ? columns.map((column) => row[column]) : [row]))
  const count = pick(data, 'rowCount', 'row_count', 'totalRows', 'total_rows')
  return {
    queryId: asString(pick(data, 'queryId', 'query_id', 'id')),
    columns,
    rows,
    rowCount: typeof count === 'number' ? count : rows.length
  }
}

/** Finds the rows of an earlier query by its id. */
export interface TableLookup {
  get(queryId: string): TableData | undefined
}

export function readChart(call: ToolCallView, tablesByQuery: TableLookup): ChartSpec | null {
  const source: Json = { ...call.args, ...(isRecord(call.data) ? call.data : {}) }
  const xAxisKey = asString(pick(source, 'xAxisKey', 'x_axis_key'))
  const rawSeries = pick(source, 'series')
  if (!xAxisKey || !Array.isArray(rawSeries)) return null
  const series = rawSeries.flatMap((item) => {
    if (typeof item === 'string') return [{ dataKey: item, label: item }]
    if (!isRecord(item)) return []
    const dataKey = asString(pick(item, 'dataKey', 'data_key', 'key', 'column'))
    if (!dataKey) return []
    const color = asString(pick(item, 'color'))
    return [{ dataKey, label: asString(pick(item, 'label', 'name')) ?? dataKey, ...(color ? { color } : {}) }]
  })
  const queryId = asString(pick(source, 'queryId', 'query_id'))
  const ownTable = readTable(call.data)
  return {
    queryId,
    chartType: asString(pick(source, 'chartType', 'chart_type')) ?? 'bar',
    xAxisKey,
    series,
    title: asString(pick(source, 'title')) ?? 'Chart',
    table: ownTable ?? (queryId ? (tablesByQuery.get(queryId) ?? null) : null)
  }
}

export function readClarification(call: ToolCallView): { question: string; options: string[] } | null {
  const source: Json = { ...call.args, ...(isRecord(call.data) ? call.data : {}) }
  const question = asString(pick(source, 'question'))
  const options = pick(source, 'options')
  if (!question) return null
  return { question, options: Array.isArray(options) ? options.flatMap((option) => asString(option) ?? []) : [] }
}

export function readFollowUps(call: ToolCallView): string[] {
  const source: Json = { ...call.args, ...(isRecord(call.data) ? call.data : {}) }
  const suggestions = pick(source, 'suggestions')
  return Array.isArray(suggestions) ? suggestions.flatMap((item) => asString(item) ?? []) : []
}

export function sqlOf(call: ToolCallView): string | null {
  return asString(pick(call.args, 'sql_query', 'sql', 'query'))
}
