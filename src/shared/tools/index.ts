// The tools whose results the UI draws: their arguments (as the model sends them) and their structured results
// (as the agent returns them in `tool-end.data` and the store keeps them), typed once for main and renderer.

export type { CellValue, ExecuteSqlArgs, ExecuteSqlResult } from './execute-sql'
export { CHART_AXIS_TYPES, CHART_TYPES, type ChartAxisType, type ChartType, type DisplayChartArgs, type DisplayChartResult } from './display-chart'
export type { ClarificationArgs, ClarificationResult } from './clarification'
export type { SuggestFollowUpsArgs, SuggestFollowUpsResult } from './suggest-follow-ups'
