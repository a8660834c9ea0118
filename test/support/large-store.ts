import type { Store } from '../../src/main/store'

// A store at the scale of a long-used install (issue #17): 1,000,000 messages across 5,000 chats of one project
// and 100,000 memories. Written by a few INSERT … SELECT over recursive CTEs in one transaction: seconds, not
// the minutes a row-by-row insert takes.

export interface LargeStoreShape {
  chats: number
  messages: number
  memories: number
}

export const LARGE_STORE: LargeStoreShape = { chats: 5000, messages: 1_000_000, memories: 100_000 }

/** Fills `store` with chats, messages and memories for `projectRoot`; returns the project id. */
export function fillLargeStore(store: Store, projectRoot: string, shape: LargeStoreShape = LARGE_STORE): number {
  const projectId = store.projects.ensure(projectRoot).id
  const params = { projectId, chats: shape.chats, messages: shape.messages, memories: shape.memories }
  store.transaction(() => {
    // Chat i was last active at minute i; message j belongs to chat j % chats, one second after message j - 1.
    store.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < @chats)
         INSERT INTO chats (id, project_id, title, created_at, updated_at)
         SELECT printf('chat-%06d', i), @projectId, 'Revenue question ' || i,
                strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || i || ' minutes'),
                strftime('%Y-%m-%dT%H:%M:%fZ', '2025-06-01', '+' || i || ' minutes')
         FROM n`
      )
      .run(params)
    store.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < @messages)
         INSERT INTO messages (id, chat_id, role, text, status, created_at)
         SELECT printf('message-%08d', i), printf('chat-%06d', i % @chats),
                CASE i % 2 WHEN 0 THEN 'user' ELSE 'assistant' END,
                CASE i % 2 WHEN 0 THEN 'What was revenue in month ' || (i % 12 + 1) || ' for segment ' || (i % 37) || '?'
                  ELSE 'Revenue in month ' || (i % 12 + 1) || ' was ' || (i % 9973) || ' thousand euros, up '
                       || (i % 17) || '% on the month before (query q' || i || ', column revenue).' END,
                'done', strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || i || ' seconds')
         FROM n`
      )
      .run(params)
    store.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < @memories)
         INSERT INTO memories (project_id, category, content, tokens, chat_id, created_at, updated_at)
         SELECT @projectId, CASE WHEN i % 10 < 3 THEN 'global_rule' ELSE 'personal_fact' END,
                'Memory ' || i || ': always report segment ' || (i % 37) || ' in euros.', 12,
                CASE WHEN i % 4 = 0 THEN NULL ELSE printf('chat-%06d', i % @chats) END,
                strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || i || ' seconds'),
                strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || i || ' seconds')
         FROM n`
      )
      .run(params)
  })
  store.db.exec('ANALYZE')
  return projectId
}
