import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

it('0050-run-requests keeps existing runs and stores each round of a run, removed with its run', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 30 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/p', 'p', 't')`)
  db.exec(`INSERT INTO chats (id, project_id, title, created_at, updated_at) VALUES ('c1', 1, 'Chat', 't', 't')`)
  db.exec(`INSERT INTO runs (id, chat_id, model, endpoint, status, started_at) VALUES ('r1', 'c1', 'm', 'e', 'done', 't')`)
  const before = db.prepare(`SELECT * FROM runs`).all()

  migrate(db, MIGRATIONS, { upTo: 50 })

  expect(readUserVersion(db)).toBe(50)
  expect(db.prepare(`SELECT * FROM runs`).all()).toEqual(before)
  const insert = db.prepare(`INSERT INTO run_requests (run_id, round, url, body, sent_at) VALUES ('r1', ?, 'u', ?, 't')`)
  insert.run(1, '{"a":1}')
  insert.run(2, '{"a":2}')
  expect(() => insert.run(2, 'again')).toThrow()
  expect(db.prepare(`SELECT round, body FROM run_requests ORDER BY round`).all()).toEqual([
    { round: 1, body: '{"a":1}' },
    { round: 2, body: '{"a":2}' }
  ])
  db.exec(`DELETE FROM runs WHERE id = 'r1'`)
  expect(db.prepare(`SELECT count(*) AS n FROM run_requests`).get()).toEqual({ n: 0 })
})
