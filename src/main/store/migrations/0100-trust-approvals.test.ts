import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

it('0100-trust-approvals adds an empty approvals table, one approval per project folder and fingerprint, leaving projects as they were', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 99 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/a', 'a', 't')`)
  const before = db.prepare(`SELECT * FROM projects`).all()

  migrate(db, MIGRATIONS, { upTo: 100 })

  expect(readUserVersion(db)).toBe(100)
  expect(db.prepare(`SELECT * FROM projects`).all()).toEqual(before)
  expect(db.prepare(`SELECT count(*) AS n FROM trust_approvals`).get()).toEqual({ n: 0 })
  const insert = db.prepare(`INSERT INTO trust_approvals (project_root, fingerprint, kind, request_json, approved_at) VALUES (?, ?, 'server', '{}', 't')`)
  insert.run('/a', 'f1')
  insert.run('/b', 'f1')
  expect(() => insert.run('/a', 'f1')).toThrow(/UNIQUE/)
})
