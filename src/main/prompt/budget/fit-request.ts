import { RequestFitter } from './fitter'
import type { FitRequestInput, FittedRequest, SkillListItem } from './types'

// Fits the whole request (system prompt + tool schemas + history + user prompt + reserved output) into the
// model's context window, so a local server never cuts it silently. When it does not fit, parts are
// trimmed in this fixed order, each step only as far as needed, and every trim is recorded:
//   1. history, oldest turn first — moved to one `archivedRefs` entry the model can follow with a tool;
//   2. memory, lowest priority first (personal facts before global rules), oldest first;
//   3. the skills list, from its end;
//   4. large context summaries (files and earlier results), largest first.
// The instructions, the user's rules, the question and this run's own messages are never trimmed; when
// they alone do not fit, ContextWindowTooSmallError is thrown and nothing is sent.

export type { FitRequestInput, FittedRequest, SkillListItem, SystemPromptParts } from './types'

export function fitRequest<Skill extends SkillListItem>(input: FitRequestInput<Skill>): FittedRequest<Skill> {
  checkSizes(input)
  const fitter = new RequestFitter(input)
  // When even trimming everything cannot make it fit, the error comes from that state, rendered once, instead
  // of at the end of every step's batches (a 200 KB RULES.md against an 8K window re-renders dozens of times).
  if (fitter.isOver()) new RequestFitter(input, true).throwIfOver()
  // The fixed order; each step does nothing once the request fits.
  fitter.archiveOldestHistory()
  fitter.dropMemory()
  fitter.dropSkills()
  fitter.dropLargeSummaries()
  return fitter.result() // throws ContextWindowTooSmallError when it still does not fit
}

type Sizes = Pick<FitRequestInput, 'contextWindow' | 'reservedOutput' | 'toolSchemasTokens'>

function checkSizes({ contextWindow, reservedOutput, toolSchemasTokens }: Sizes): void {
  for (const [name, value] of Object.entries({ contextWindow, reservedOutput, toolSchemasTokens })) {
    if (!Number.isInteger(value) || value < 0) {
      throw new RangeError(`fitRequest: ${name} must be a whole number ≥ 0, got ${value}`)
    }
  }
  if (contextWindow === 0) {
    throw new RangeError('fitRequest: contextWindow is 0; the model server did not report a usable window')
  }
}
