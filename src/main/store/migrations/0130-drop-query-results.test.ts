import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

const tables = (db: Database.Database): string[] =>
  db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all() as string[]

it('0130-drop-query-results drops the unused query_results table and keeps every run and tool call', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  // N−1, so steps merged in between are in both the before and the after.
  migrate(db, MIGRATIONS, { upTo: 129 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/a', 'a', 't')`)
  db.exec(`INSERT INTO chats (id, project_id, title, created_at, updated_at) VALUES ('c', 1, 'chat', 't', 't')`)
  db.exec(`INSERT INTO runs (id, chat_id, model, endpoint, status, started_at) VALUES ('r1', 'c', 'm', 'e', 'done', 't')`)
  db.exec(`INSERT INTO query_results (run_id, query_id, sql, columns_json, rows_json, row_count, created_at) VALUES ('r1', 'q1', 'SELECT 1', '[]', '[]', 0, 't')`)
  const runs = db.prepare(`SELECT * FROM runs ORDER BY id`).all()
  const before = tables(db)
  expect(before).toContain('query_results')

  migrate(db, MIGRATIONS, { upTo: 130 })

  expect(readUserVersion(db)).toBe(130)
  expect(tables(db)).toEqual(before.filter((name) => name !== 'query_results'))
  expect(db.prepare(`SELECT * FROM runs ORDER BY id`).all()).toEqual(runs)
})
