import type { ToolCallView } from '../../../shared/api'
import type { CellValue, ClarificationArgs, DisplayChartArgs, DisplayChartResult, ExecuteSqlArgs, ExecuteSqlResult, SuggestFollowUpsArgs } from '../../../shared/tools'

// Reads tool calls as the agent types them (src/shared/tools): the structured result in `data` once the call
// has ended, the tool's own arguments while it runs or when it failed. A stored call whose `data` has another
// shape (an older version, a damaged row) reads as nothing rather than blanking or breaking the chat.

export interface TableData {
  queryId: string | null
  columns: string[]
  rows: unknown[][]
  /** Rows the query returned in all (more than `rows.length` when only the first ones were kept). */
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

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
}

function isCell(value: unknown): value is CellValue {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

function isRows(value: unknown): value is CellValue[][] {
  return Array.isArray(value) && value.every((row) => Array.isArray(row) && row.every(isCell))
}

function isSqlResult(data: unknown): data is Pick<ExecuteSqlResult, 'queryId' | 'columns' | 'rows' | 'totalRows'> {
  return isRecord(data) && typeof data.queryId === 'string' && isStringArray(data.columns) && isRows(data.rows) && typeof data.totalRows === 'number'
}

function isSeries(value: unknown): value is DisplayChartResult['series'] {
  return Array.isArray(value) && value.every((item) => isRecord(item) && typeof item.dataKey === 'string' && typeof item.label === 'string')
}

function isChartResult(data: unknown): data is DisplayChartResult {
  return isRecord(data) && typeof data.chartType === 'string' && typeof data.xAxisKey === 'string' && typeof data.title === 'string' && isSeries(data.series) && isSqlResult(data)
}

/** One argument of a tool call, by a key name its argument type has. */
function arg<Args>(args: Json, key: keyof Args & string): unknown {
  return args[key]
}

function isChartSeriesArgs(value: unknown): value is DisplayChartArgs['series'] {
  return Array.isArray(value) && value.every((item) => isRecord(item) && typeof item.data_key === 'string')
}

/** The rows of an `execute_sql` result, or null while it runs, when it failed, or for data of another shape. */
export function readTable(data: unknown): TableData | null {
  if (!isSqlResult(data)) return null
  return { queryId: data.queryId, columns: data.columns, rows: data.rows, rowCount: data.totalRows }
}

/** Finds the rows of an earlier query by its id. */
export interface TableLookup {
  get(queryId: string): TableData | undefined
}

export function readChart(call: ToolCallView, tablesByQuery: TableLookup): ChartSpec | null {
  const { data, args } = call
  if (isChartResult(data)) {
    return { queryId: data.queryId, chartType: data.chartType, xAxisKey: data.xAxisKey, series: data.series, title: data.title, table: readTable(data) }
  }
  // Still running, or a stored call without its result: the chart the model asked for, on the query it names.
  const xAxisKey = arg<DisplayChartArgs>(args, 'x_axis_key')
  const series = arg<DisplayChartArgs>(args, 'series')
  if (typeof xAxisKey !== 'string' || !isChartSeriesArgs(series)) return null
  const queryId = arg<DisplayChartArgs>(args, 'query_id')
  const chartType = arg<DisplayChartArgs>(args, 'chart_type')
  const title = arg<DisplayChartArgs>(args, 'title')
  return {
    queryId: typeof queryId === 'string' ? queryId : null,
    chartType: typeof chartType === 'string' ? chartType : 'bar',
    xAxisKey,
    series: series.map((item) => ({ dataKey: item.data_key, label: item.label ?? item.data_key, ...(item.color ? { color: item.color } : {}) })),
    title: typeof title === 'string' ? title : 'Chart',
    table: typeof queryId === 'string' ? (tablesByQuery.get(queryId) ?? null) : null
  }
}

export function readClarification(call: ToolCallView): ClarificationArgs | null {
  // The result repeats the arguments, so a clarification is drawn as soon as it is asked.
  const source = isRecord(call.data) ? call.data : call.args
  const question = arg<ClarificationArgs>(source, 'question')
  const options = arg<ClarificationArgs>(source, 'options')
  if (typeof question !== 'string' || question === '') return null
  return { question, options: isStringArray(options) ? options : [] }
}

export function readFollowUps(call: ToolCallView): string[] {
  const suggestions = arg<SuggestFollowUpsArgs>(isRecord(call.data) ? call.data : call.args, 'suggestions')
  return isStringArray(suggestions) ? suggestions : []
}

export function sqlOf(call: ToolCallView): string | null {
  const sql = arg<ExecuteSqlArgs>(call.args, 'sql_query')
  return typeof sql === 'string' ? sql : null
}
