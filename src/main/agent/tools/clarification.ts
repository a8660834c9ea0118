import * as z from '../../../shared/zod-mini'
import type { ClarificationArgs, ClarificationResult } from '../../../shared/tools'
import { createTool } from './create-tool'

export const clarificationInput = () =>
  z.object({
    question: z.string().check(z.minLength(1), z.describe('The one question that resolves the ambiguity.')),
    options: z.array(z.string().check(z.minLength(1))).check(z.minLength(2), z.maxLength(5), z.describe('Two to five likely answers the user can pick.'))
  }) satisfies z.ZodMiniType<ClarificationArgs>

// A stop tool: the run ends and waits for the user's choice. Absent in test mode, where nobody answers.
export const clarificationTool = createTool({
  name: 'clarification',
  description:
    'Ask the user to choose when the request is genuinely ambiguous (several plausible tables, unclear period, undefined metric). Ends your turn.',
  inputSchema: clarificationInput,
  stopsRun: true,
  execute: async (input): Promise<ClarificationResult> => ({ question: input.question, options: input.options }),
  toModelOutput: (request) => `Asked the user: ${request.question} Options: ${request.options.join(' | ')}. Waiting for their answer.`
})
