import { z } from 'zod'
import { createTool, ToolError, type ToolResultRecord } from './create-tool'

export const readToolResultInput = z.object({
  resultId: z.string().min(1),
  callId: z.string().min(1).describe('The callId of a tool call listed in that result.')
})

export const readToolResultTool = createTool({
  name: 'read_tool_result',
  description: 'Read the full output of one tool call of an earlier answer.',
  inputSchema: readToolResultInput,
  async execute(input, ctx): Promise<ToolResultRecord> {
    const result = await ctx.readToolResult(input.resultId, input.callId)
    if (!result) throw new ToolError(`No tool call "${input.callId}" in result "${input.resultId}".`)
    return result
  },
  toModelOutput: (result) =>
    `${result.toolName} ${JSON.stringify(result.args)} → ${result.ok ? 'ok' : 'failed'}\n${result.output.trim() === '' ? '(empty output)' : result.output}`
})
