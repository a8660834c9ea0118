import * as z from '../../../shared/zod-mini'
import type { SuggestFollowUpsArgs, SuggestFollowUpsResult } from '../../../shared/tools'
import { createTool } from './create-tool'

export const suggestFollowUpsInput = () =>
  z.object({
    suggestions: z
      .array(z.string().check(z.minLength(1), z.maxLength(200)))
      .check(z.minLength(1), z.maxLength(3), z.describe('One to three short follow-up questions the user may ask next.'))
  }) satisfies z.ZodMiniType<SuggestFollowUpsArgs>

export const suggestFollowUpsTool = createTool({
  name: 'suggest_follow_ups',
  description: 'Offer the user one to three follow-up questions, shown as clickable chips after the answer.',
  inputSchema: suggestFollowUpsInput,
  execute: async (input): Promise<SuggestFollowUpsResult> => ({ suggestions: input.suggestions }),
  toModelOutput: (result) => `Shown to the user as follow-ups: ${result.suggestions.map((s) => `"${s}"`).join(', ')}.`
})
