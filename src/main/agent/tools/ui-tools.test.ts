import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NAO_LAYOUT } from '../../../../test/support/fixtures'
import { clarificationTool } from './clarification'
import { displayChartTool } from './display-chart'
import { executeSqlTool } from './execute-sql'
import { createAgentTools } from './index'
import { readAgentResultTool } from './read-agent-result'
import { readToolResultTool } from './read-tool-result'
import { suggestFollowUpsTool } from './suggest-follow-ups'
import { makeToolContext } from './tool-context.testing'

describe('chart, follow-up, clarification and earlier-result tools', () => {
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    ctx = await makeToolContext(NAO_LAYOUT)
    ctx.readAgentResult = async (id) =>
      id === 'r1'
        ? { resultId: 'r1', title: 'Revenue', status: 'finished', content: 'Revenue was 1734.', toolCalls: [{ callId: 'c1', toolName: 'execute_sql', status: 'ok' }] }
        : null
    ctx.readToolResult = async (resultId, callId) =>
      resultId === 'r1' && callId === 'c1'
        ? { resultId, callId, toolName: 'execute_sql', args: { sql_query: 'SELECT 1' }, ok: true, output: '| 1 |' }
        : null
  })
  afterAll(() => ctx.close())

  const chart = {
    query_id: 'q1',
    chart_type: 'bar',
    x_axis_key: 'status',
    x_axis_type: 'category',
    series: [{ data_key: 'orders' }],
    title: 'Orders by status'
  }

  it('display_chart returns a chart spec with the stored rows', async () => {
    await executeSqlTool.invoke({ sql_query: 'SELECT status, count(*) AS orders FROM orders GROUP BY status ORDER BY status' }, ctx)
    const result = await displayChartTool.invoke(chart, ctx)
    expect(result.ok).toBe(true)
    expect(result.output).toMatch(/^Chart "Orders by status" shown to the user: bar of q1, x = status, series = orders \(\d+ rows\)\.$/)
    expect(result.data).toMatchObject({ queryId: 'q1', xAxisKey: 'status', series: [{ dataKey: 'orders', label: 'orders' }] })
  })

  it('display_chart refuses an unknown query_id or column', async () => {
    expect((await displayChartTool.invoke({ ...chart, query_id: 'q99' }, ctx)).output).toContain('Unknown query_id "q99"')
    const badColumn = await displayChartTool.invoke({ ...chart, x_axis_key: 'month' }, ctx)
    expect(badColumn.output).toBe('Error: Column month not in q1. Its columns: status, orders.')
  })

  it('suggest_follow_ups accepts one to three suggestions', async () => {
    expect((await suggestFollowUpsTool.invoke({ suggestions: ['By month?'] }, ctx)).output).toBe('Shown to the user as follow-ups: "By month?".')
    const tooMany = await suggestFollowUpsTool.invoke({ suggestions: ['a', 'b', 'c', 'd'] }, ctx)
    expect(tooMany.ok).toBe(false)
    expect(tooMany.output).toContain('invalid arguments for suggest_follow_ups')
  })

  it('clarification is a stop tool that needs two to five options', async () => {
    expect(clarificationTool.stopsRun).toBe(true)
    const asked = await clarificationTool.invoke({ question: 'Which period?', options: ['2024', '2025'] }, ctx)
    expect(asked.data).toEqual({ question: 'Which period?', options: ['2024', '2025'] })
    expect((await clarificationTool.invoke({ question: 'Which?', options: ['only'] }, ctx)).ok).toBe(false)
  })

  it('read_agent_result and read_tool_result go through the injected lookups', async () => {
    const answer = await readAgentResultTool.invoke({ resultId: 'r1' }, ctx)
    expect(answer.output).toBe('# Revenue (finished)\nRevenue was 1734.\n\nTool calls (read one with read_tool_result):\n- c1 execute_sql (ok)')
    expect((await readToolResultTool.invoke({ resultId: 'r1', callId: 'c1' }, ctx)).output).toBe('execute_sql {"sql_query":"SELECT 1"} → ok\n| 1 |')
    expect((await readAgentResultTool.invoke({ resultId: 'nope' }, ctx)).output).toBe('Error: No earlier result with resultId "nope".')
  })

  it('test mode has no clarification tool; every tool has a JSON schema', () => {
    expect(createAgentTools({ testMode: true }).map((tool) => tool.name)).not.toContain('clarification')
    const all = createAgentTools()
    expect(all.map((tool) => tool.name)).toEqual([
      'execute_sql', 'read', 'list', 'search', 'grep', 'display_chart', 'suggest_follow_ups', 'read_agent_result', 'read_tool_result', 'clarification'
    ])
    for (const tool of all) expect(tool.parameters).toMatchObject({ type: 'object' })
  })
})
