import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { countTokens } from '../../prompt/tokens'
import { migrate, readUserVersion } from '../migrate'
import { toRow } from '../row'
import { MIGRATIONS } from '.'

it('0020-memory-tokens keeps every memory and fills in its token count', () => {
  const db = new Database(':memory:')
  migrate(db, MIGRATIONS, { upTo: 10 })
  db.prepare(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/p', 'p', 't')`).run()
  const insert = db.prepare(
    `INSERT INTO memories (id, project_id, category, content, created_at, updated_at, superseded_by, enabled)
     VALUES (?, 1, ?, ?, ?, ?, ?, ?)`
  )
  insert.run(1, 'global_rule', 'Always show revenue in EUR.', '2026-01-01', '2026-01-01', 2, 1)
  insert.run(2, 'global_rule', 'Always show revenue in USD.', '2026-01-02', '2026-01-02', null, 1)
  insert.run(3, 'personal_fact', 'The user is on the growth team.', '2026-01-03', '2026-01-04', null, 0)
  const before = db.prepare(`SELECT * FROM memories ORDER BY id`).all()

  migrate(db, MIGRATIONS, { upTo: 20 })

  expect(readUserVersion(db)).toBe(20)
  const after = db.prepare(`SELECT * FROM memories ORDER BY id`).all()
  expect(after).toEqual(
    before.map((row, index) => ({
      ...toRow(row),
      tokens: countTokens(['Always show revenue in EUR.', 'Always show revenue in USD.', 'The user is on the growth team.'][index])
    }))
  )
  const plan = db
    .prepare(
      `EXPLAIN QUERY PLAN SELECT id FROM memories WHERE project_id = 1 AND category = 'global_rule'
       AND enabled = 1 AND superseded_by IS NULL AND chat_id IS NOT NULL ORDER BY created_at DESC, id DESC`
    )
    .all()
  expect(JSON.stringify(plan)).toContain('memories_selectable')
})
