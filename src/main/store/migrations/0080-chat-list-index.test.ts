import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

const LIST = `SELECT id FROM chats WHERE project_id = 1 AND purpose = 'chat' ORDER BY updated_at DESC, rowid DESC`

it('0080-chat-list-index lists chats in the same order with one backward index scan and no sort', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 60 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/a', 'a', 't'), (2, '/b', 'b', 't')`)
  const insert = db.prepare(`INSERT INTO chats (id, project_id, title, purpose, created_at, updated_at) VALUES (?, ?, ?, ?, 't', ?)`)
  // Two chats updated in the same millisecond: the newer row comes first.
  insert.run('c1', 1, 'first', 'chat', '2026-01-01T00:00:00.000Z')
  insert.run('c2', 1, 'tie, older row', 'chat', '2026-01-02T00:00:00.000Z')
  insert.run('c3', 1, 'tie, newer row', 'chat', '2026-01-02T00:00:00.000Z')
  insert.run('c4', 2, 'other project', 'chat', '2026-01-03T00:00:00.000Z')
  insert.run('c5', 1, 'oldest', 'chat', '2025-12-31T00:00:00.000Z')
  insert.run('c6', 1, 'a test case', 'evaluation', '2026-01-04T00:00:00.000Z')
  const before = db.prepare(`SELECT * FROM chats ORDER BY rowid`).all()
  const order = db.prepare(LIST).pluck().all()

  migrate(db, MIGRATIONS, { upTo: 80 })

  expect(readUserVersion(db)).toBe(80)
  expect(db.prepare(`SELECT * FROM chats ORDER BY rowid`).all()).toEqual(before)
  expect(order).toEqual(['c3', 'c2', 'c1', 'c5'])
  expect(db.prepare(LIST).pluck().all()).toEqual(order)
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${LIST}`).all().map((step) => (step as { detail: string }).detail)
  expect(plan).toEqual([expect.stringContaining('USING INDEX chats_for_list')])
  expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'chats_by_project'`).all()).toEqual([])
})
