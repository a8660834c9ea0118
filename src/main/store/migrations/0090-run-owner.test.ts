import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

it('0090-run-owner adds an owner to runs, keeping every existing run as it was (owner unknown)', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  // N−1, so steps merged in between (0070 answer versions) are in both the before and the after.
  migrate(db, MIGRATIONS, { upTo: 89 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/a', 'a', 't')`)
  db.exec(`INSERT INTO chats (id, project_id, title, created_at, updated_at) VALUES ('c', 1, 'chat', 't', 't')`)
  db.exec(`INSERT INTO runs (id, chat_id, model, endpoint, status, started_at) VALUES ('r1', 'c', 'm', 'e', 'running', 't'), ('r2', 'c', 'm', 'e', 'done', 't')`)
  const before = db.prepare(`SELECT * FROM runs ORDER BY id`).all()

  migrate(db, MIGRATIONS, { upTo: 90 })

  expect(readUserVersion(db)).toBe(90)
  const after = db.prepare(`SELECT * FROM runs ORDER BY id`).all()
  expect(after).toEqual(before.map((row) => ({ ...(row as object), owner_pid: null })))
  const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT id, owner_pid FROM runs WHERE status = 'running'`).all()
  expect(JSON.stringify(plan)).toContain('runs_running')
})
