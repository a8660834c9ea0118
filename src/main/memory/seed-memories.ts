import type { MemoryCategory } from '../../shared/prompt'
import { countTokens } from '../prompt/tokens'
import type { Store } from '../store'
import { seededRandom } from '../seeded-random'

const WORDS = ['revenue', 'EUR', 'weekly', 'growth', 'team', 'always', 'never', 'orders', 'churn', 'cohort', 'Berlin', 'SQL']

export interface SeedOptions {
  seed?: number
  /** Chats the memories are attributed to (round robin; null = added by hand); none → all by hand. */
  chatIds?: (string | null)[]
  /** Share of memories that are disabled / superseded (0–1). */
  disabledShare?: number
  supersededShare?: number
}

/**
 * Inserts `count` memories of varied length in one transaction, straight into the table (tests and the
 * bench need tens of thousands quickly). Times are one second apart, so "newest" is well defined.
 */
export function seedMemories(store: Store, projectId: number, count: number, options: SeedOptions = {}): void {
  const random = seededRandom(options.seed ?? 1)
  const insert = store.db.prepare(
    `INSERT INTO memories (project_id, category, content, tokens, chat_id, created_at, updated_at, superseded_by, enabled)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  const start = Date.parse('2025-01-01T00:00:00.000Z')
  store.transaction(() => {
    for (let i = 0; i < count; i++) {
      const category: MemoryCategory = random() < 0.3 ? 'global_rule' : 'personal_fact'
      const words = Array.from({ length: 3 + Math.floor(random() * 40) }, () => WORDS[Math.floor(random() * WORDS.length)])
      const content = `Memory ${i}: ${words.join(' ')}.`
      const chatId = options.chatIds?.length ? (options.chatIds[i % options.chatIds.length] ?? null) : null
      const at = new Date(start + i * 1000).toISOString()
      const superseded = random() < (options.supersededShare ?? 0) ? 1 : null
      const enabled = random() < (options.disabledShare ?? 0) ? 0 : 1
      insert.run(projectId, category, content, countTokens(content), chatId, at, at, superseded, enabled)
    }
  })
}
