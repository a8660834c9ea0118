import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MemoryItem } from '../../shared/prompt'
import type { Store } from '../store'
import { openTempStore } from '../store/test-store'
import { seedMemories } from './seed-memories'
import { selectMemories, selectStoredMemories, type CandidateMemory } from './select'

const memory = (id: number, category: MemoryItem['category'], tokens: number, createdAt: string, chatId: string | null = null): MemoryItem => ({
  id,
  category,
  content: `memory ${id}`,
  tokens,
  chatId,
  createdAt
})

describe('selectMemories', () => {
  it('puts global rules before personal facts, newest first within each', () => {
    const memories = [
      memory(1, 'personal_fact', 5, '2026-01-03'),
      memory(2, 'global_rule', 5, '2026-01-01'),
      memory(3, 'global_rule', 5, '2026-01-02'),
      memory(4, 'personal_fact', 5, '2026-01-04')
    ]
    expect(selectMemories(memories).included.map((item) => item.id)).toEqual([3, 2, 4, 1])
  })

  it('skips a memory that does not fit and keeps going with smaller ones', () => {
    const memories = [
      memory(1, 'global_rule', 60, '2026-01-03'),
      memory(2, 'global_rule', 50, '2026-01-02'),
      memory(3, 'personal_fact', 30, '2026-01-01'),
      memory(4, 'personal_fact', 10, '2026-01-00')
    ]
    const selection = selectMemories(memories, { budgetTokens: 100 })
    expect(selection.included.map((item) => item.id)).toEqual([1, 3, 4])
    expect(selection.dropped).toEqual([{ ...memories[1], reason: 'over budget: needs 50 tokens, 40 left' }])
    expect(selection.droppedCount).toBe(1)
  })

  it('leaves out, without listing them, the current chat’s, superseded and disabled memories', () => {
    const memories: CandidateMemory[] = [
      memory(1, 'global_rule', 5, '2026-01-01', 'chat-now'),
      { ...memory(2, 'global_rule', 5, '2026-01-02'), supersededBy: 3 },
      { ...memory(3, 'global_rule', 5, '2026-01-03'), enabled: false },
      memory(4, 'personal_fact', 5, '2026-01-04', 'chat-before')
    ]
    expect(selectMemories(memories, { currentChatId: 'chat-now' })).toEqual({ included: [memories[3]], dropped: [], droppedCount: 0 })
  })

  it('selects nothing when memory is off for the project', () => {
    expect(selectMemories([memory(1, 'global_rule', 5, '2026-01-01')], { memoryEnabled: false })).toEqual({
      included: [],
      dropped: [],
      droppedCount: 0
    })
  })

  it('drops everything with a zero budget, and does not reorder its input', () => {
    const memories = [memory(1, 'personal_fact', 5, '2026-01-01'), memory(2, 'global_rule', 5, '2026-01-02')]
    const selection = selectMemories(memories, { budgetTokens: 0 })
    expect(selection.dropped.map((item) => item.reason)).toEqual(['over budget: needs 5 tokens, 0 left', 'over budget: needs 5 tokens, 0 left'])
    expect(memories.map((item) => item.id)).toEqual([1, 2])
  })
})

describe('selectStoredMemories', () => {
  let store: Store
  let cleanup: () => void
  let projectId: number
  beforeEach(() => {
    ;({ store, cleanup } = openTempStore())
    projectId = store.projects.ensure('/data/shop').id
  })
  afterEach(() => cleanup())

  function chats(count: number): string[] {
    return Array.from({ length: count }, () => store.chats.create(projectId).id)
  }

  it.each([
    [0, true],
    [7, true],
    [100, false],
    [1000, true],
    [5000, false]
  ])('matches the in-memory selection (budget %i, in a chat: %s)', (budgetTokens, inChat) => {
    const chatIds = chats(3)
    seedMemories(store, projectId, 400, { seed: budgetTokens + 1, chatIds: [...chatIds, null], disabledShare: 0.1, supersededShare: 0.1 })
    const options = { budgetTokens, currentChatId: inChat ? chatIds[1] : null, maxDropped: 10_000 }
    // Every memory, retired ones included, with its stored token count: the in-memory walk must skip them.
    const tokens = new Map(
      store.db
        .prepare(`SELECT id, tokens FROM memories`)
        .raw()
        .all()
        .map((row) => (Array.isArray(row) ? [Number(row[0]), Number(row[1])] : [0, 0]))
    )
    const all = store.memories.list(projectId).map((view) => ({ ...view, tokens: tokens.get(view.id) ?? 0 }))
    expect(selectStoredMemories(store, projectId, options)).toEqual(selectMemories(all, options))
  })

  it('finds a small old memory behind a long run of memories that do not fit', () => {
    const small = store.memories.add(projectId, { category: 'personal_fact', content: 'Works in Berlin.' })
    for (let i = 0; i < 300; i++)
      store.memories.add(projectId, { category: 'personal_fact', content: `Fact ${i}: ` + 'revenue '.repeat(40) })
    const [newest] = store.memories.recentSelectable(projectId, 1)
    const budgetTokens = store.memories.items([newest.id])[0].tokens + 10
    const selection = selectStoredMemories(store, projectId, { budgetTokens, maxDropped: 1000 })
    expect(selection.included.map((item) => item.id)).toEqual([newest.id, small.id])
    expect(selection.droppedCount).toBe(299)
    expect(selection).toEqual(selectMemories(store.memories.selectable(projectId, null), { budgetTokens }))
  })

  it('takes budget and on/off from the project settings', () => {
    seedMemories(store, projectId, 50)
    store.settings.update(projectId, { memoryBudget: 30 })
    const selection = selectStoredMemories(store, projectId)
    expect(selection.included.reduce((sum, item) => sum + item.tokens, 0)).toBeLessThanOrEqual(30)
    store.settings.update(projectId, { memoryEnabled: false })
    expect(selectStoredMemories(store, projectId)).toEqual({ included: [], dropped: [], droppedCount: 0 })
  })

  it('handles 10,000 memories, listing the first 100 dropped and counting the rest', () => {
    seedMemories(store, projectId, 10_000)
    const selection = selectStoredMemories(store, projectId)
    const tokens = selection.included.reduce((sum, item) => sum + item.tokens, 0)
    expect(tokens).toBeLessThanOrEqual(1000)
    expect(selection.dropped).toHaveLength(100)
    expect(selection.droppedCount).toBe(10_000 - selection.included.length)
    expect(selection.included.map((item) => item.id)).toEqual(
      selectMemories(store.memories.selectable(projectId, null)).included.map((item) => item.id)
    )
  })
})
