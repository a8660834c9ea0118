import type { Budget, DroppedMemory, MemoryItem, RequestMessage, TrimRecord } from '../../../shared/prompt'
import { countTokens } from '../tokens'
import type { ContextBlock } from '../user/context-block'
import {
  ContextWindowTooSmallError,
  DEFAULT_SAFETY_MARGIN_RATIO,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  messageTokens,
  type TokenCounter
} from './costs'
import { archivedHistoryRef, splitIntoTurns, type ArchiveTarget } from './history'
import { summaryCandidates, SUMMARY_LEFT_OUT } from './summaries'

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

const CATEGORY_DROP_ORDER: Record<MemoryItem['category'], number> = { personal_fact: 0, global_rule: 1 }
/** A list item's bullet and line break in the system prompt. */
const LIST_ITEM_OVERHEAD = 2
const MEMORY_DROP_REASON = 'Left out to fit the context window (lowest priority and oldest first).'

export function fitRequest<Skill extends SkillListItem>(input: FitRequestInput<Skill>): FittedRequest<Skill> {
  checkSizes(input)
  const count = input.countTokens ?? countTokens
  const safetyMargin = Math.ceil(input.contextWindow * (input.safetyMarginRatio ?? DEFAULT_SAFETY_MARGIN_RATIO))
  const available = input.contextWindow - input.reservedOutput - safetyMargin
  const trimmed: TrimRecord[] = []

  let memory = [...input.memory]
  const droppedMemory: DroppedMemory[] = []
  let skills = [...input.skills]
  const droppedSkills: Skill[] = []
  let system = ''
  let systemTokens = 0
  const renderSystem = (): void => {
    system = input.renderSystem({
      memory,
      skills,
      droppedMemoryCount: droppedMemory.length,
      droppedSkillCount: droppedSkills.length
    })
    systemTokens = count(system) + MESSAGE_OVERHEAD_TOKENS
  }

  let context = structuredClone(input.context)
  let user = ''
  let userTokens = 0
  const imageTokens = (input.imageCount ?? 0) * IMAGE_TOKENS
  const renderUser = (): void => {
    user = input.renderUser(context)
    userTokens = count(user) + MESSAGE_OVERHEAD_TOKENS + imageTokens
  }

  const historyCosts = input.history.map((message) => messageTokens(message, count))
  let historyTokens = sum(historyCosts)
  const inRunTokens = sum((input.inRunMessages ?? []).map((message) => messageTokens(message, count)))
  let keptFrom = 0

  renderSystem()
  renderUser()
  const over = (): number => systemTokens + input.toolSchemasTokens + historyTokens + inRunTokens + userTokens - available

  // Drops items in order until their estimated cost covers the excess, applies the batch (which re-renders
  // and re-counts), and repeats while still over: one render per batch instead of one per item.
  function dropInBatches<T>(order: readonly T[], cost: (item: T) => number, apply: (batch: T[]) => void): void {
    let next = 0
    while (over() > 0 && next < order.length) {
      const batch: T[] = []
      let deficit = over()
      while (deficit > 0 && next < order.length) {
        const item = order[next++]
        batch.push(item)
        deficit -= Math.max(1, cost(item))
      }
      apply(batch)
    }
  }

  // 1. History, whole turns, oldest first; one archive entry covers everything moved out.
  if (over() > 0 && input.history.length > 0) {
    const turns = splitIntoTurns(input.history)
    const earlierRefs = context.archivedRefs ?? []
    let turnsArchived = 0
    let archivedTokens = 0
    // The archive entry itself costs tokens in the user prompt; the first render measures it and, when
    // it tips the request over again, the next pass archives one more turn.
    while (over() > 0 && turnsArchived < turns.length) {
      let deficit = over()
      while (deficit > 0 && turnsArchived < turns.length) {
        const [start, end] = turns[turnsArchived++]
        const tokens = sum(historyCosts.slice(start, end))
        historyTokens -= tokens
        archivedTokens += tokens
        deficit -= tokens
        keptFrom = end
      }
      const ref = archivedHistoryRef(input.history.slice(0, keptFrom), turnsArchived, archivedTokens, input.archive)
      context = { ...context, archivedRefs: [...earlierRefs, ref] }
      renderUser()
    }
    trimmed.push({
      part: 'history',
      detail: `Archived the ${keptFrom} oldest messages (${turnsArchived} of ${turns.length} turns) as ${context.archivedRefs?.at(-1)?.fileId}; the model can read them with a tool.`,
      tokensSaved: archivedTokens
    })
  }

  // 2. Memory: personal facts before global rules, oldest first.
  if (over() > 0 && memory.length > 0) {
    const dropOrder = [...memory].sort(
      (a, b) => CATEGORY_DROP_ORDER[a.category] - CATEGORY_DROP_ORDER[b.category] || a.createdAt.localeCompare(b.createdAt) || a.id - b.id
    )
    dropInBatches(dropOrder, (item) => item.tokens + LIST_ITEM_OVERHEAD, (batch) => {
      const gone = new Set(batch)
      memory = memory.filter((item) => !gone.has(item))
      for (const item of batch) {
        droppedMemory.push({ ...item, reason: MEMORY_DROP_REASON })
        trimmed.push({ part: 'memory', detail: `Memory #${item.id} (${item.category}) left out: "${clip(item.content)}"`, tokensSaved: item.tokens })
      }
      renderSystem()
    })
  }

  // 3. The skills list, from its end.
  if (over() > 0 && skills.length > 0) {
    const skillCost = (skill: Skill): number => count(`${skill.name}: ${skill.description}`) + LIST_ITEM_OVERHEAD
    dropInBatches([...skills].reverse(), skillCost, (batch) => {
      const gone = new Set(batch)
      skills = skills.filter((skill) => !gone.has(skill))
      for (const skill of batch) {
        droppedSkills.push(skill)
        trimmed.push({ part: 'skills', detail: `Skill "${skill.name}" left out of the skills list`, tokensSaved: skillCost(skill) })
      }
      renderSystem()
    })
  }

  // 4. Large context summaries, largest first (context is our own copy, so it may be changed in place).
  if (over() > 0) {
    const leftOutTokens = count(SUMMARY_LEFT_OUT)
    const candidates = summaryCandidates(context, count).filter((candidate) => candidate.tokens > leftOutTokens)
    dropInBatches(candidates, (candidate) => candidate.tokens - leftOutTokens, (batch) => {
      for (const candidate of batch) {
        candidate.owner.summary = SUMMARY_LEFT_OUT
        trimmed.push({ part: 'context', detail: `Summary of ${candidate.label} left out`, tokensSaved: candidate.tokens - leftOutTokens })
      }
      renderUser()
    })
  }

  if (over() > 0) {
    throw new ContextWindowTooSmallError(input.contextWindow, {
      system: systemTokens,
      tools: input.toolSchemasTokens,
      history: historyTokens + inRunTokens,
      user: userTokens,
      output: input.reservedOutput,
      safetyMargin
    })
  }

  const parts = [
    { name: 'system', tokens: systemTokens },
    { name: 'tools', tokens: input.toolSchemasTokens },
    { name: 'history', tokens: historyTokens + inRunTokens },
    { name: 'user', tokens: userTokens },
    { name: 'output', tokens: input.reservedOutput }
  ]
  return {
    system,
    history: input.history.slice(keptFrom),
    user,
    context,
    memory: { included: memory, dropped: droppedMemory },
    skills: { included: skills, dropped: droppedSkills },
    archivedHistory: input.history.slice(0, keptFrom),
    budget: {
      contextWindow: input.contextWindow,
      reservedOutput: input.reservedOutput,
      used: sum(parts.map((part) => part.tokens)),
      parts,
      trimmed,
      safetyMargin
    }
  }

}

function checkSizes(input: Pick<FitRequestInput, 'contextWindow' | 'reservedOutput' | 'toolSchemasTokens'>): void {
  const sizes = { contextWindow: input.contextWindow, reservedOutput: input.reservedOutput, toolSchemasTokens: input.toolSchemasTokens }
  for (const [name, value] of Object.entries(sizes)) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`fitRequest: ${name} must be a whole number ≥ 0, got ${value}`)
  }
  if (input.contextWindow === 0) throw new RangeError('fitRequest: contextWindow is 0; the model server did not report a usable window')
}

function sum(values: readonly number[]): number {
  let total = 0
  for (const value of values) total += value
  return total
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= 60 ? flat : flat.slice(0, 60) + '…'
}
