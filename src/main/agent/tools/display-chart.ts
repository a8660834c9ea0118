import * as z from '../../../shared/zod-mini'
import { CHART_AXIS_TYPES, CHART_TYPES, type DisplayChartArgs, type DisplayChartResult } from '../../../shared/tools'
import { createTool, ToolError } from './create-tool'

export const displayChartInput = () =>
  z.object({
    query_id: z.string().check(z.minLength(1), z.describe('The query_id returned by execute_sql whose rows the chart draws.')),
    chart_type: z.enum(CHART_TYPES),
    x_axis_key: z.string().check(z.minLength(1), z.describe('Column of the query result for the x axis (or pie labels).')),
    x_axis_type: z.enum(CHART_AXIS_TYPES),
    series: z
      .array(z.object({ data_key: z.string().check(z.minLength(1), z.describe('Column with the values.')), label: z.optional(z.string()), color: z.optional(z.string()) }))
      .check(z.minLength(1), z.maxLength(10)),
    title: z.string().check(z.minLength(1))
  }) satisfies z.ZodMiniType<DisplayChartArgs>

export const displayChartTool = createTool({
  name: 'display_chart',
  description: 'Show the user a chart drawn from the rows of an earlier execute_sql result (by query_id).',
  inputSchema: displayChartInput,
  async execute(input, ctx): Promise<DisplayChartResult> {
    const query = ctx.queryStore.get(input.query_id)
    if (!query) throw new ToolError(`Unknown query_id "${input.query_id}". Run execute_sql first and use the query_id it returns.`)
    const missing = [input.x_axis_key, ...input.series.map((s) => s.data_key)].filter((key) => !query.columns.includes(key))
    if (missing.length > 0) {
      throw new ToolError(`Column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not in ${input.query_id}. Its columns: ${query.columns.join(', ')}.`)
    }
    return {
      queryId: query.queryId,
      chartType: input.chart_type,
      xAxisKey: input.x_axis_key,
      xAxisType: input.x_axis_type,
      series: input.series.map((s) => ({ dataKey: s.data_key, label: s.label ?? s.data_key, ...(s.color ? { color: s.color } : {}) })),
      title: input.title,
      columns: query.columns,
      rows: query.rows,
      totalRows: query.totalRows
    }
  },
  toModelOutput: (chart) => {
    const cut = chart.totalRows > chart.rows.length ? ` (first ${chart.rows.length} of ${chart.totalRows} rows)` : ` (${chart.rows.length} rows)`
    return `Chart "${chart.title}" shown to the user: ${chart.chartType} of ${chart.queryId}, x = ${chart.xAxisKey}, series = ${chart.series.map((s) => s.dataKey).join(', ')}${cut}.`
  }
})
