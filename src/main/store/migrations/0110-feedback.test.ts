import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

it('0110-feedback adds a feedback table that keeps its rows when the chat they came from is deleted', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 109 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/a', 'a', 't')`)
  db.exec(`INSERT INTO chats (id, project_id, title, created_at, updated_at) VALUES ('c', 1, 'chat', 't', 't')`)
  db.exec(`INSERT INTO runs (id, chat_id, model, endpoint, status, started_at) VALUES ('r', 'c', 'm', 'e', 'done', 't')`)
  db.exec(`INSERT INTO messages (id, chat_id, role, text, status, run_id, created_at) VALUES ('q', 'c', 'user', 'How many?', 'done', NULL, 't'), ('a', 'c', 'assistant', '40', 'done', 'r', 't')`)
  const before = db.prepare(`SELECT * FROM messages ORDER BY id`).all()

  migrate(db, MIGRATIONS, { upTo: 110 })

  expect(readUserVersion(db)).toBe(110)
  expect(db.prepare(`SELECT * FROM messages ORDER BY id`).all()).toEqual(before)
  db.exec(`INSERT INTO feedback (project_id, chat_id, message_id, run_id, rating, question, answer, sql, database_id, created_at, updated_at)
           VALUES (1, 'c', 'a', 'r', 'up', 'How many?', '40', 'SELECT 40', 'shop', 't', 't')`)
  expect(() => db.exec(`INSERT INTO feedback (project_id, message_id, rating, question, answer, created_at, updated_at) VALUES (1, 'a', 'down', 'q', 'a', 't', 't')`)).toThrow(/UNIQUE/)
  expect(() => db.exec(`INSERT INTO feedback (project_id, rating, question, answer, created_at, updated_at) VALUES (1, 'meh', 'q', 'a', 't', 't')`)).toThrow(/CHECK/)

  const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT * FROM feedback WHERE chat_id = 'c'`).all()
  expect(JSON.stringify(plan)).toContain('feedback_by_chat')

  db.exec(`DELETE FROM chats WHERE id = 'c'`)
  expect(db.prepare(`SELECT chat_id, message_id, run_id, rating, question, sql, database_id FROM feedback`).all()).toEqual([
    { chat_id: null, message_id: null, run_id: null, rating: 'up', question: 'How many?', sql: 'SELECT 40', database_id: 'shop' }
  ])
})
