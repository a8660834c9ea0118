import type { ContextBlock } from '../user/context-block'
import type { TokenCounter } from './costs'

// The summaries in a context block that may be left out to fit the window: those of attached files, of
// earlier results and of their output files. Archived references are never among them.

export const SUMMARY_LEFT_OUT = '(summary left out to fit the context window; read the full content with a tool)'

export interface SummaryCandidate {
  /** The object whose `summary` is replaced (inside the fitter's own copy of the context block). */
  owner: { summary: string }
  tokens: number
  /** Names the item for the trim record, e.g. `result "Revenue" (res_1)`. */
  label: string
}

/** Every summary in the block, largest first. */
export function summaryCandidates(context: ContextBlock, count: TokenCounter): SummaryCandidate[] {
  const candidates: SummaryCandidate[] = []
  for (const file of context.files) {
    candidates.push({ owner: file, tokens: count(file.summary), label: `file "${file.name}" (${file.fileId})` })
  }
  for (const result of context.resultsMeta ?? []) {
    candidates.push({ owner: result, tokens: count(result.summary), label: `result "${result.title}" (${result.resultId})` })
    for (const file of result.outputFiles) {
      candidates.push({ owner: file, tokens: count(file.summary), label: `output file "${file.name}" of ${result.resultId}` })
    }
  }
  // Stable: equal sizes keep their order in the block.
  return candidates.sort((a, b) => b.tokens - a.tokens)
}
