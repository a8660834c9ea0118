import * as z from '../../../shared/zod-mini'
import { createTool, ToolError, type ToolResultRecord } from './create-tool'

export const readToolResultInput = () =>
  z.object({
    resultId: z.string().check(z.minLength(1)),
    callId: z.string().check(z.minLength(1), z.describe('The callId of a tool call listed in that result.'))
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
