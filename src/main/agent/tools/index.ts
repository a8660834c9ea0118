import { clarificationTool } from './clarification'
import type { AgentTool } from './create-tool'
import { displayChartTool } from './display-chart'
import { executeSqlTool } from './execute-sql'
import { grepTool } from './grep'
import { listTool } from './list'
import { readTool } from './read'
import { readAgentResultTool } from './read-agent-result'
import { readToolResultTool } from './read-tool-result'
import { searchTool } from './search'
import { suggestFollowUpsTool } from './suggest-follow-ups'

export { createTool, DEFAULT_TOOL_LIMITS, ToolError } from './create-tool'
export type { AgentTool, ToolContext, ToolLimits, ToolInvocation, AgentResultRecord, ToolResultRecord } from './create-tool'

/**
 * The agent's tools, names as nao's, then the tools the project's MCP servers add (`projectTools`).
 * Test mode drops `clarification`: nobody is there to answer.
 */
export function createAgentTools(options: { testMode?: boolean; projectTools?: readonly AgentTool[] } = {}): AgentTool[] {
  const tools = [
    executeSqlTool,
    readTool,
    listTool,
    searchTool,
    grepTool,
    displayChartTool,
    suggestFollowUpsTool,
    readAgentResultTool,
    readToolResultTool
  ]
  const builtIn = options.testMode ? tools : [...tools, clarificationTool]
  return [...builtIn, ...(options.projectTools ?? [])]
}
