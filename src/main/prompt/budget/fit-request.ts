import type { Budget, DroppedMemory, MemoryItem, RequestMessage } from '../../../shared/prompt'
import type { ContextBlock } from '../user/context-block'
import type { TokenCounter } from './costs'
import { RequestFitter } from './fitter'
import type { ArchiveTarget } from './history'

// Fits the whole request (system prompt + tool schemas + history + user prompt + reserved output) into the
// model's context window, so a local server never cuts it silently. When it does not fit, parts are
// trimmed in this fixed order, each step only as far as needed, and every trim is recorded:
//   1. history, oldest turn first — moved to one `archivedRefs` entry the model can follow with a tool;
//   2. memory, lowest priority first (personal facts before global rules), oldest first;
//   3. the skills list, from its end;
//   4. large context summaries (files and earlier results), largest first.
// The instructions, the user's rules, the question and this run's own messages are never trimmed; when
// they alone do not fit, ContextWindowTooSmallError is thrown and nothing is sent.

export interface SkillListItem {
  name: string
  description: string
}

/** What the system prompt is rendered from after trimming, so it can say how much was left out. */
export interface SystemPromptParts<Skill extends SkillListItem> {
  memory: readonly MemoryItem[]
  skills: readonly Skill[]
  droppedMemoryCount: number
  droppedSkillCount: number
}

export interface FitRequestInput<Skill extends SkillListItem = SkillListItem> {
  contextWindow: number
  /** Tokens kept for the answer. */
  reservedOutput: number
  /**
   * Renders the system prompt; called again whenever memory or skills are dropped. The last call is
   * always with the final parts, so a caller may keep what its last call produced (sections, sources).
   */
  renderSystem: (parts: SystemPromptParts<Skill>) => string
  memory: readonly MemoryItem[]
  skills: readonly Skill[]
  toolSchemasTokens: number
  /** Earlier turns of the chat, oldest first. */
  history: readonly RequestMessage[]
  /** This run's messages so far (tool calls and results): counted, never trimmed. */
  inRunMessages?: readonly RequestMessage[]
  /** The user prompt's context block, and how to render the user prompt from it. */
  context: ContextBlock
  /** Renders the user prompt; like renderSystem, the last call is with the final context block. */
  renderUser: (context: ContextBlock) => string
  /** Images sent with the user prompt. */
  imageCount?: number
  /** Where archived history is said to live. */
  archive: ArchiveTarget
  /** Defaults to the cached BPE estimator. */
  countTokens?: TokenCounter
  /** Share of the window kept free for tokenizer differences (default 5%). */
  safetyMarginRatio?: number
}

export interface FittedRequest<Skill extends SkillListItem = SkillListItem> {
  system: string
  /** The kept history, oldest first. */
  history: RequestMessage[]
  user: string
  /** The context block the user prompt was rendered from (with any archive entry and dropped summaries). */
  context: ContextBlock
  memory: { included: MemoryItem[]; dropped: DroppedMemory[] }
  skills: { included: Skill[]; dropped: Skill[] }
  /** Messages moved out of the request; store them under the archive entry's fileId for the tool to read. */
  archivedHistory: RequestMessage[]
  budget: Budget
}

export function fitRequest<Skill extends SkillListItem>(input: FitRequestInput<Skill>): FittedRequest<Skill> {
  checkSizes(input)
  const fitter = new RequestFitter(input)
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
