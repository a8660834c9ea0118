// The agent's tools, named as nao names them so nao projects' rules and skills still make sense.
export const DEFAULT_TOOL_NAMES: readonly string[] = [
  'execute_sql',
  'read',
  'list',
  'search',
  'grep',
  'display_chart',
  'suggest_follow_ups',
  'clarification',
  'read_agent_result',
  'read_tool_result'
]

/** The tools a run offers: test mode never waits for the user, so it has no clarification tool. */
export function toolNamesFor(testMode: boolean, tools: readonly string[] = DEFAULT_TOOL_NAMES): string[] {
  return testMode ? tools.filter((name) => name !== 'clarification') : [...tools]
}

/** Tools an MCP server of the project adds: named `<server>__<tool>`, which no built-in tool is. */
export function projectToolNames(tools: readonly string[]): string[] {
  return tools.filter((name) => name.includes('__'))
}
