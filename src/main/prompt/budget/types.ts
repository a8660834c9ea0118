import type { Budget, DroppedMemory, MemoryItem, RequestMessage } from '../../../shared/prompt'
import type { ContextBlock } from '../user/context-block'
import type { TokenCounter } from './costs'
import type { ArchiveTarget } from './history'

// What fitting a request takes and gives, apart from the code that does it (fit-request.ts, fitter.ts).

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
