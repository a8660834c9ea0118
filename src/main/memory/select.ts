import type { DroppedMemory, MemoryCategory, MemoryItem } from '../../shared/prompt'
import type { Store } from '../store'

// Which memories go into the prompt. Categories in priority order (standing instructions before facts about
// the user), newest first within a category; a memory goes in when its tokens fit what is left of the budget,
// otherwise it is dropped with the reason and the walk goes on, so a long memory does not block shorter,
// older ones.
//
// Not candidates at all, so not listed as dropped: memories learned in the current chat (the conversation
// already holds them), superseded ones (a newer memory replaced them) and disabled ones (the user turned them
// off). The inspector's dropped list is therefore exactly "what the budget left out", and its length is what
// the prompt reports as missing. With memory off for the project nothing is selected and nothing is dropped.

export const MEMORY_CATEGORIES: readonly MemoryCategory[] = ['global_rule', 'personal_fact']
export const DEFAULT_MEMORY_BUDGET_TOKENS = 1000

export interface SelectOptions {
  /** Tokens the Memory section may use (default 1000). */
  budgetTokens?: number
  /** The chat being answered: its own memories are left out. */
  currentChatId?: string | null
  /** Memory switched off for the project: nothing is selected. */
  memoryEnabled?: boolean
}

export interface MemorySelection {
  included: MemoryItem[]
  /** Left out for lack of budget, in selection order (capped for stored selections, see droppedCount). */
  dropped: DroppedMemory[]
  /** How many the budget left out; can exceed dropped.length when the list is capped. */
  droppedCount: number
}

/** A memory as loaded for the memory manager may carry its state; retired ones are skipped. */
export type CandidateMemory = MemoryItem & { enabled?: boolean; supersededBy?: number | null }

export function overBudgetReason(tokens: number, remaining: number): string {
  return `over budget: needs ${tokens} tokens, ${remaining} left`
}

function newestFirst(a: MemoryItem, b: MemoryItem): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1
  return b.id - a.id
}

/** Selects from memories already in hand (the budget slider's preview, tests). Does not change its input. */
export function selectMemories(memories: readonly CandidateMemory[], options: SelectOptions = {}): MemorySelection {
  if (options.memoryEnabled === false) return { included: [], dropped: [], droppedCount: 0 }
  let remaining = options.budgetTokens ?? DEFAULT_MEMORY_BUDGET_TOKENS
  const currentChatId = options.currentChatId ?? null
  const included: MemoryItem[] = []
  const dropped: DroppedMemory[] = []
  for (const category of MEMORY_CATEGORIES) {
    const candidates = memories
      .filter(
        (memory) =>
          memory.category === category &&
          memory.enabled !== false &&
          (memory.supersededBy ?? null) === null &&
          (currentChatId === null || memory.chatId !== currentChatId)
      )
      .sort(newestFirst)
    for (const memory of candidates) {
      const item = toItem(memory)
      if (item.tokens <= remaining) {
        included.push(item)
        remaining -= item.tokens
      } else {
        dropped.push({ ...item, reason: overBudgetReason(item.tokens, remaining) })
      }
    }
  }
  return { included, dropped, droppedCount: dropped.length }
}

function toItem(memory: CandidateMemory): MemoryItem {
  const { id, category, content, tokens, chatId, createdAt } = memory
  return { id, category, content, tokens, chatId, createdAt }
}

export interface StoredSelectOptions extends SelectOptions {
  /** At most this many dropped memories are listed with their reason (default 100). */
  maxDropped?: number
}

/**
 * The same selection, straight from the store, without loading every memory: the store keeps each memory's
 * token count, and a partial index lists the selectable ones in selection order. The walk asks for "the next
 * memory in order that still fits" until the rest cannot fit, so its cost follows what gets included, not
 * how many memories exist. Budget and on/off come from the project's settings unless given.
 */
export function selectStoredMemories(store: Store, projectId: number, options: StoredSelectOptions = {}): MemorySelection {
  const settings =
    options.memoryEnabled === undefined || options.budgetTokens === undefined ? store.settings.read(projectId) : null
  const memoryEnabled = options.memoryEnabled ?? settings?.memoryEnabled ?? true
  if (!memoryEnabled) return { included: [], dropped: [], droppedCount: 0 }
  const budget = options.budgetTokens ?? settings?.memoryBudget ?? DEFAULT_MEMORY_BUDGET_TOKENS
  const exclude = options.currentChatId ?? null
  const maxDropped = options.maxDropped ?? 100
  const repo = store.memories

  const included: MemoryItem[] = []
  let remaining = budget
  let candidates = 0
  for (const category of MEMORY_CATEGORIES) {
    candidates += repo.countSelectable(projectId, category, exclude)
    const smallest = repo.smallestTokens(projectId, category, exclude)
    let cursor: MemoryItem | null = null
    while (smallest !== null && smallest <= remaining) {
      const next = repo.nextFitting(projectId, category, exclude, cursor, remaining)
      if (next === null) break
      included.push(next)
      remaining -= next.tokens
      cursor = next
    }
  }

  // Reasons need the budget left at each dropped memory's place in the walk: replay the walk over the first
  // rows of each category, starting each category from what the previous ones left.
  const droppedAt: { id: number; reason: string }[] = []
  const includedIds = new Set(included.map((memory) => memory.id))
  let left = budget
  for (const category of MEMORY_CATEGORIES) {
    const inCategory = included.filter((memory) => memory.category === category)
    if (droppedAt.length < maxDropped) {
      let replayLeft = left
      for (const memory of repo.firstSelectable(projectId, category, exclude, maxDropped + inCategory.length)) {
        if (includedIds.has(memory.id)) replayLeft -= memory.tokens
        else if (droppedAt.length < maxDropped)
          droppedAt.push({ id: memory.id, reason: overBudgetReason(memory.tokens, replayLeft) })
      }
    }
    left -= inCategory.reduce((sum, memory) => sum + memory.tokens, 0)
  }
  const byId = new Map(repo.items(droppedAt.map((memory) => memory.id)).map((item) => [item.id, item]))
  const dropped = droppedAt.flatMap(({ id, reason }) => {
    const item = byId.get(id)
    return item ? [{ ...item, reason }] : []
  })
  return { included, dropped, droppedCount: candidates - included.length }
}
