import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

it('0120-served-model adds the answering model and per-round counts, keeping every run and request as it was', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 119 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/a', 'a', 't')`)
  db.exec(`INSERT INTO chats (id, project_id, title, created_at, updated_at) VALUES ('c', 1, 'chat', 't', 't')`)
  db.exec(`INSERT INTO runs (id, chat_id, model, endpoint, status, started_at) VALUES ('r1', 'c', 'asked', 'e', 'done', 't')`)
  db.exec(`INSERT INTO run_requests (run_id, round, url, body, sent_at) VALUES ('r1', 1, 'u', '{}', 't')`)
  const runs = db.prepare(`SELECT * FROM runs`).all()
  const requests = db.prepare(`SELECT * FROM run_requests`).all()

  migrate(db, MIGRATIONS, { upTo: 120 })

  expect(readUserVersion(db)).toBe(120)
  expect(db.prepare(`SELECT * FROM runs`).all()).toEqual(runs.map((row) => ({ ...(row as object), served_model: null })))
  expect(db.prepare(`SELECT * FROM run_requests`).all()).toEqual(
    requests.map((row) => ({ ...(row as object), input_tokens: null, output_tokens: null, served_model: null }))
  )
})
