import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { toRow } from '../row'
import { MIGRATIONS } from '.'

it('0070-answer-versions keeps every message and run, all live, with no timing yet', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 69 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/p', 'p', 't')`)
  db.exec(`INSERT INTO chats (id, project_id, title, created_at, updated_at) VALUES ('c', 1, 'Chat', 't', 't')`)
  db.exec(`INSERT INTO runs (id, chat_id, model, endpoint, status, started_at) VALUES ('r', 'c', 'm', 'e', 'done', 't')`)
  db.exec(`INSERT INTO messages (id, chat_id, role, text, status, created_at) VALUES ('u', 'c', 'user', 'Q', 'done', '1')`)
  db.exec(`INSERT INTO messages (id, chat_id, role, text, status, run_id, created_at) VALUES ('a', 'c', 'assistant', 'A', 'done', 'r', '2')`)
  const messages = db.prepare(`SELECT * FROM messages ORDER BY id`).all()
  const runs = db.prepare(`SELECT * FROM runs`).all()

  migrate(db, MIGRATIONS, { upTo: 70 })

  expect(readUserVersion(db)).toBe(70)
  expect(db.prepare(`SELECT * FROM messages ORDER BY id`).all()).toEqual(messages.map((row) => ({ ...toRow(row), turn_id: null, archived_version: null })))
  expect(db.prepare(`SELECT * FROM runs`).all()).toEqual(runs.map((row) => ({ ...toRow(row), first_token_at: null })))
  const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT * FROM messages WHERE chat_id = 'c' AND archived_version IS NOT NULL`).all()
  expect(JSON.stringify(plan)).toContain('messages_archived_by_chat')
})
