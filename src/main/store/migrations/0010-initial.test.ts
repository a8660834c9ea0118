import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

it('0010-initial creates every table on an empty database, with foreign keys that hold', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 10 })
  expect(readUserVersion(db)).toBe(10)
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
    .pluck()
    .all()
  expect(tables).toEqual([
    'chats',
    'memories',
    'messages',
    'projects',
    'prompt_snapshots',
    'query_results',
    'runs',
    'settings',
    'test_results',
    'test_runs',
    'tool_calls'
  ])
  db.prepare(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/p', 'p', 't')`).run()
  db.prepare(
    `INSERT INTO chats (id, project_id, title, created_at, updated_at) VALUES ('c1', 1, 'Chat', 't', 't')`
  ).run()
  expect(() =>
    db
      .prepare(`INSERT INTO chats (id, project_id, title, created_at, updated_at) VALUES ('c2', 99, 'x', 't', 't')`)
      .run()
  ).toThrow(/FOREIGN KEY/)
  // Deleting a project removes its chats.
  db.prepare(`DELETE FROM projects WHERE id = 1`).run()
  expect(db.prepare(`SELECT count(*) FROM chats`).pluck().get()).toBe(0)
})
