import type { CellValue } from './execute-sql'

// `display_chart`: a chart drawn from the rows of an earlier `execute_sql` result.

export const CHART_TYPES = ['bar', 'line', 'area', 'pie', 'scatter', 'stacked_bar'] as const
export type ChartType = (typeof CHART_TYPES)[number]

export const CHART_AXIS_TYPES = ['category', 'date', 'number'] as const
export type ChartAxisType = (typeof CHART_AXIS_TYPES)[number]

export interface DisplayChartArgs {
  query_id: string
  chart_type: ChartType
  x_axis_key: string
  x_axis_type: ChartAxisType
  series: { data_key: string; label?: string; color?: string }[]
  title: string
}

export interface DisplayChartResult {
  queryId: string
  chartType: ChartType
  xAxisKey: string
  xAxisType: ChartAxisType
  series: { dataKey: string; label: string; color?: string }[]
  title: string
  columns: string[]
  rows: CellValue[][]
  /** Rows of the query in all; the chart draws the stored ones. */
  totalRows: number
}
