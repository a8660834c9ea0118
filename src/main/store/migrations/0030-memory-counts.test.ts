import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { toRow } from '../row'
import { MIGRATIONS } from '.'

function counts(db: Database.Database): unknown[] {
  return db.prepare(`SELECT project_id, category, selectable FROM memory_counts ORDER BY project_id, category`).all()
}

it('0030-memory-counts counts the existing selectable memories, then keeps the counts with triggers', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 20 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/a', 'a', 't'), (2, '/b', 'b', 't')`)
  const insert = db.prepare(
    `INSERT INTO memories (project_id, category, content, tokens, created_at, updated_at, superseded_by, enabled)
     VALUES (?, ?, 'x', 1, 't', 't', ?, ?)`
  )
  insert.run(1, 'global_rule', null, 1)
  insert.run(1, 'global_rule', null, 1)
  insert.run(1, 'global_rule', 1, 1)
  insert.run(1, 'personal_fact', null, 0)
  insert.run(2, 'personal_fact', null, 1)
  const before = db.prepare(`SELECT * FROM memories ORDER BY id`).all()

  migrate(db, MIGRATIONS, { upTo: 30 })

  expect(readUserVersion(db)).toBe(30)
  expect(db.prepare(`SELECT * FROM memories ORDER BY id`).all()).toEqual(before)
  expect(counts(db)).toEqual([
    { project_id: 1, category: 'global_rule', selectable: 2 },
    { project_id: 2, category: 'personal_fact', selectable: 1 }
  ])

  insert.run(1, 'personal_fact', null, 1) // id 6: +1 fact
  db.exec(`UPDATE memories SET enabled = 1 WHERE id = 4`) // +1 fact
  db.exec(`UPDATE memories SET superseded_by = 6 WHERE id = 1`) // −1 rule
  db.exec(`UPDATE memories SET category = 'personal_fact' WHERE id = 2`) // rule → fact
  db.exec(`UPDATE memories SET content = 'y' WHERE id = 5`) // no change
  db.exec(`DELETE FROM memories WHERE id = 3`) // superseded: no change
  expect(counts(db)).toEqual([
    { project_id: 1, category: 'global_rule', selectable: 0 },
    { project_id: 1, category: 'personal_fact', selectable: 3 },
    { project_id: 2, category: 'personal_fact', selectable: 1 }
  ])
  const truth = db
    .prepare(
      `SELECT project_id, category, count(*) AS selectable FROM memories WHERE enabled = 1 AND superseded_by IS NULL
       GROUP BY project_id, category ORDER BY project_id, category`
    )
    .all()
  expect(counts(db).filter((row) => toRow(row).selectable !== 0)).toEqual(truth)
  db.exec(`DELETE FROM projects WHERE id = 1`)
  expect(counts(db)).toEqual([{ project_id: 2, category: 'personal_fact', selectable: 1 }])
})
