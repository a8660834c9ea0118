import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

it('0040-token-scales adds a table of learned token scales per endpoint and model, leaving other rows alone', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 30 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/a', 'a', 't')`)
  db.exec(`INSERT INTO settings (project_id, key, value_json) VALUES (NULL, 'model', '"qwen3:8b"')`)
  const before = [db.prepare(`SELECT * FROM projects`).all(), db.prepare(`SELECT * FROM settings`).all()]

  migrate(db, MIGRATIONS, { upTo: 40 })

  expect(readUserVersion(db)).toBe(40)
  expect([db.prepare(`SELECT * FROM projects`).all(), db.prepare(`SELECT * FROM settings`).all()]).toEqual(before)
  const insert = db.prepare(`INSERT INTO token_scales (endpoint, model, scale, observations, updated_at) VALUES (?, ?, ?, ?, 't')`)
  insert.run('http://127.0.0.1:8080/v1', 'tiny.gguf', 1.28, 1)
  insert.run('http://127.0.0.1:11434/v1', 'tiny.gguf', 1.1, 3)
  expect(db.prepare(`SELECT endpoint, scale FROM token_scales ORDER BY endpoint`).all()).toEqual([
    { endpoint: 'http://127.0.0.1:11434/v1', scale: 1.1 },
    { endpoint: 'http://127.0.0.1:8080/v1', scale: 1.28 }
  ])
  expect(() => insert.run('http://127.0.0.1:8080/v1', 'tiny.gguf', 1.5, 1)).toThrow(/UNIQUE|PRIMARY KEY/)
  expect(() => insert.run('x', 'y', 0, 1)).toThrow(/CHECK/)
})
