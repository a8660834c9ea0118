import type { RunDetail } from '../../../../shared/api'
import type { Budget } from '../../../../shared/prompt'
import { formatTokens } from './format'

/** How a run ended and what the server counted, e.g. "Answer cut at the output limit (2,048 tokens). Tokens counted by the server: …". */
export function describeRunOutcome(run: Pick<RunDetail, 'stopReason' | 'usage' | 'status'>, budget: Budget | null): string | null {
  if (run.status === 'running') return null
  const limit = budget ? ` (${formatTokens(budget.reservedOutput)} tokens)` : ''
  const ending = run.stopReason === 'length' ? `Answer cut at the output limit${limit}. ` : ''
  const counted = budget?.serverCounted !== undefined ? `Prompt counted by the server before sending: ${formatTokens(budget.serverCounted)} tokens. ` : ''
  const usage = run.usage ? `Tokens counted by the server: ${formatTokens(run.usage.inputTokens)} in, ${formatTokens(run.usage.outputTokens)} out.` : 'Token usage: not reported by the server.'
  return ending + counted + usage
}
