import type { DroppedMemory, MemoryItem, TrimRecord } from '../../../shared/prompt'
import { countTokensPiecewise } from '../token-pieces'
import type { ContextBlock } from '../user/context-block'
import {
  ContextWindowTooSmallError,
  DEFAULT_SAFETY_MARGIN_RATIO,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  messageTokens,
  type TokenCounter
} from './costs'
import type { FitRequestInput, FittedRequest, SkillListItem } from './types'
import { archivedHistoryRef, splitIntoTurns } from './history'
import { summaryCandidates, SUMMARY_LEFT_OUT } from './summaries'

// The state of one fit: what is still included, what each part costs, and what was trimmed. Each step
// drops items in its own order until the request fits, re-rendering the affected prompt once per batch.

const CATEGORY_DROP_ORDER: Record<MemoryItem['category'], number> = { personal_fact: 0, global_rule: 1 }
/** A list item's bullet and line break in the system prompt. */
const LIST_ITEM_OVERHEAD = 2
const MEMORY_DROP_REASON = 'Left out to fit the context window (lowest priority and oldest first).'

export class RequestFitter<Skill extends SkillListItem> {
  private readonly count: TokenCounter
  private readonly safetyMargin: number
  private readonly available: number
  private readonly trimmed: TrimRecord[] = []

  private memory: MemoryItem[]
  private readonly droppedMemory: DroppedMemory[] = []
  private skills: Skill[]
  private readonly droppedSkills: Skill[] = []
  private system = ''
  private systemTokens = 0

  /** The fitter's own copy: summaries may be replaced in place without touching the caller's block. */
  private context: ContextBlock
  private user = ''
  private userTokens = 0
  private readonly imageTokens: number

  private readonly historyCosts: number[]
  private historyTokens: number
  private readonly inRunTokens: number
  /** History before this index is archived. */
  private keptFrom = 0

  /**
   * `everythingTrimmed`: starts from the end of every step at once — all history archived, all memory and
   * skills left out, every large summary replaced — which is where the steps end when the request cannot fit.
   */
  constructor(
    private readonly input: FitRequestInput<Skill>,
    everythingTrimmed = false
  ) {
    // Piecewise: the system prompt changes a little every turn (date, memories) but is counted whole each time.
    this.count = input.countTokens ?? countTokensPiecewise
    this.safetyMargin = Math.ceil(input.contextWindow * (input.safetyMarginRatio ?? DEFAULT_SAFETY_MARGIN_RATIO))
    this.available = input.contextWindow - input.reservedOutput - this.safetyMargin
    this.memory = [...input.memory]
    this.skills = [...input.skills]
    this.context = structuredClone(input.context)
    this.imageTokens = (input.imageCount ?? 0) * IMAGE_TOKENS
    this.historyCosts = input.history.map((message) => messageTokens(message, this.count))
    this.historyTokens = sum(this.historyCosts)
    this.inRunTokens = sum((input.inRunMessages ?? []).map((message) => messageTokens(message, this.count)))
    if (everythingTrimmed) this.trimEverything()
    this.renderSystem()
    this.renderUser()
  }

  /** Whether the request is over the budget as it stands. */
  isOver(): boolean {
    return this.over() > 0
  }

  /** Throws ContextWindowTooSmallError when the request is over the budget as it stands. */
  throwIfOver(): void {
    if (this.over() > 0) throw this.tooSmall()
  }

  private trimEverything(): void {
    const { history, archive } = this.input
    if (history.length > 0) {
      const refs = [...(this.context.archivedRefs ?? []), archivedHistoryRef(history, splitIntoTurns(history).length, this.historyTokens, archive)]
      this.context = { ...this.context, archivedRefs: refs }
      this.keptFrom = history.length
      this.historyTokens = 0
    }
    this.droppedMemory.push(...this.memory.map((item) => ({ ...item, reason: MEMORY_DROP_REASON })))
    this.memory = []
    this.droppedSkills.push(...this.skills)
    this.skills = []
    const noteTokens = this.count(SUMMARY_LEFT_OUT)
    for (const candidate of summaryCandidates(this.context, this.count)) if (candidate.tokens > noteTokens) candidate.owner.summary = SUMMARY_LEFT_OUT
  }

  /** Tokens over the available budget (≤ 0 when the request fits). */
  private over(): number {
    const { systemTokens, historyTokens, inRunTokens, userTokens } = this
    return systemTokens + this.input.toolSchemasTokens + historyTokens + inRunTokens + userTokens - this.available
  }

  private renderSystem(): void {
    this.system = this.input.renderSystem({
      memory: this.memory,
      skills: this.skills,
      droppedMemoryCount: this.droppedMemory.length,
      droppedSkillCount: this.droppedSkills.length
    })
    this.systemTokens = this.count(this.system) + MESSAGE_OVERHEAD_TOKENS
  }

  private renderUser(): void {
    this.user = this.input.renderUser(this.context)
    this.userTokens = this.count(this.user) + MESSAGE_OVERHEAD_TOKENS + this.imageTokens
  }

  /** 1. Whole turns, oldest first; one archive entry (replaced as it grows) covers everything moved out. */
  archiveOldestHistory(): void {
    const { history, archive } = this.input
    if (this.over() <= 0 || history.length === 0) return
    const turns = splitIntoTurns(history)
    const earlierRefs = this.context.archivedRefs ?? []
    let turnsArchived = 0
    let archivedTokens = 0
    // The archive entry itself costs tokens in the user prompt; the render after each pass measures it
    // and, when it tips the request over again, the next pass archives one more turn.
    while (this.over() > 0 && turnsArchived < turns.length) {
      let deficit = this.over()
      while (deficit > 0 && turnsArchived < turns.length) {
        const [start, end] = turns[turnsArchived++]
        const tokens = sum(this.historyCosts.slice(start, end))
        this.historyTokens -= tokens
        archivedTokens += tokens
        deficit -= tokens
        this.keptFrom = end
      }
      const ref = archivedHistoryRef(history.slice(0, this.keptFrom), turnsArchived, archivedTokens, archive)
      this.context = { ...this.context, archivedRefs: [...earlierRefs, ref] }
      this.renderUser()
    }
    const fileId = this.context.archivedRefs?.at(-1)?.fileId
    this.trimmed.push({
      part: 'history',
      detail:
        `Archived the ${this.keptFrom} oldest messages (${turnsArchived} of ${turns.length} turns) as ${fileId}; ` +
        'the model can read them with a tool.',
      tokensSaved: archivedTokens
    })
  }

  /** 2. Personal facts before global rules, oldest first. */
  dropMemory(): void {
    const dropOrder = [...this.memory].sort(
      (a, b) =>
        CATEGORY_DROP_ORDER[a.category] - CATEGORY_DROP_ORDER[b.category] ||
        a.createdAt.localeCompare(b.createdAt) ||
        a.id - b.id
    )
    this.dropInBatches(dropOrder, (item) => item.tokens + LIST_ITEM_OVERHEAD, (batch) => {
      const gone = new Set(batch)
      this.memory = this.memory.filter((item) => !gone.has(item))
      for (const item of batch) {
        this.droppedMemory.push({ ...item, reason: MEMORY_DROP_REASON })
        const detail = `Memory #${item.id} (${item.category}) left out: "${clip(item.content)}"`
        this.trimmed.push({ part: 'memory', detail, tokensSaved: item.tokens })
      }
      this.renderSystem()
    })
  }

  /** 3. The skills list, from its end. */
  dropSkills(): void {
    const cost = (skill: Skill): number => this.count(`${skill.name}: ${skill.description}`) + LIST_ITEM_OVERHEAD
    this.dropInBatches([...this.skills].reverse(), cost, (batch) => {
      const gone = new Set(batch)
      this.skills = this.skills.filter((skill) => !gone.has(skill))
      for (const skill of batch) {
        this.droppedSkills.push(skill)
        this.trimmed.push({ part: 'skills', detail: `Skill "${skill.name}" left out of the skills list`, tokensSaved: cost(skill) })
      }
      this.renderSystem()
    })
  }

  /** 4. Summaries of files and earlier results, largest first, each replaced by a short note. */
  dropLargeSummaries(): void {
    if (this.over() <= 0) return
    const noteTokens = this.count(SUMMARY_LEFT_OUT)
    const candidates = summaryCandidates(this.context, this.count).filter((candidate) => candidate.tokens > noteTokens)
    this.dropInBatches(candidates, (candidate) => candidate.tokens - noteTokens, (batch) => {
      for (const candidate of batch) {
        candidate.owner.summary = SUMMARY_LEFT_OUT
        const detail = `Summary of ${candidate.label} left out`
        this.trimmed.push({ part: 'context', detail, tokensSaved: candidate.tokens - noteTokens })
      }
      this.renderUser()
    })
  }

  /** The fitted request, or ContextWindowTooSmallError when even the untrimmable parts do not fit. */
  result(): FittedRequest<Skill> {
    const { input } = this
    this.throwIfOver()
    const parts = [
      { name: 'system', tokens: this.systemTokens },
      { name: 'tools', tokens: input.toolSchemasTokens },
      { name: 'history', tokens: this.historyTokens + this.inRunTokens },
      { name: 'user', tokens: this.userTokens },
      { name: 'output', tokens: input.reservedOutput }
    ]
    return {
      system: this.system,
      history: input.history.slice(this.keptFrom),
      user: this.user,
      context: this.context,
      memory: { included: this.memory, dropped: this.droppedMemory },
      skills: { included: this.skills, dropped: this.droppedSkills },
      archivedHistory: input.history.slice(0, this.keptFrom),
      budget: {
        contextWindow: input.contextWindow,
        reservedOutput: input.reservedOutput,
        used: sum(parts.map((part) => part.tokens)),
        parts,
        trimmed: this.trimmed,
        safetyMargin: this.safetyMargin
      }
    }
  }

  private tooSmall(): ContextWindowTooSmallError {
    return new ContextWindowTooSmallError(this.input.contextWindow, {
      system: this.systemTokens,
      tools: this.input.toolSchemasTokens,
      history: this.historyTokens + this.inRunTokens,
      user: this.userTokens,
      output: this.input.reservedOutput,
      safetyMargin: this.safetyMargin
    })
  }

  // Takes items in order until their estimated cost covers the excess, applies that batch (which
  // re-renders and re-counts), and repeats while still over: one render per batch, not per item.
  private dropInBatches<T>(order: readonly T[], cost: (item: T) => number, apply: (batch: T[]) => void): void {
    let next = 0
    while (this.over() > 0 && next < order.length) {
      const batch: T[] = []
      let deficit = this.over()
      while (deficit > 0 && next < order.length) {
        const item = order[next++]
        batch.push(item)
        deficit -= Math.max(1, cost(item))
      }
      apply(batch)
    }
  }
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
