/** Tools an MCP server of the project adds: named `<server>__<tool>`, which no built-in tool is. */
export function projectToolNames(tools: readonly string[]): string[] {
  return tools.filter((name) => name.includes('__'))
}
