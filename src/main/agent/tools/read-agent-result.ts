import * as z from '../../../shared/zod-mini'
import { createTool, ToolError, type AgentResultRecord } from './create-tool'

export const readAgentResultInput = () =>
  z.object({
    resultId: z.string().check(z.minLength(1), z.describe('The resultId of an earlier answer listed under Previous Results.'))
  })

export const readAgentResultTool = createTool({
  name: 'read_agent_result',
  description: 'Read the full content of an earlier answer (listed under Previous Results) instead of relying on its summary.',
  inputSchema: readAgentResultInput,
  async execute(input, ctx): Promise<AgentResultRecord> {
    const result = await ctx.readAgentResult(input.resultId)
    if (!result) throw new ToolError(`No earlier result with resultId "${input.resultId}".`)
    return result
  },
  toModelOutput: (result) => {
    const calls = result.toolCalls.map((call) => `- ${call.callId} ${call.toolName} (${call.status}${call.error ? `: ${call.error}` : ''})`)
    return [
      `# ${result.title} (${result.status})`,
      result.content.trim() === '' ? '(no text in this answer)' : result.content,
      ...(calls.length > 0 ? ['', 'Tool calls (read one with read_tool_result):', ...calls] : [])
    ].join('\n')
  }
})
