import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

it('0115-token-counts adds an empty token_counts table with one count per key, leaving the rest as it was', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 110 })
  db.exec(`INSERT INTO token_scales (endpoint, model, scale, observations, updated_at) VALUES ('e', 'm', 1.1, 3, 't')`)
  const before = db.prepare(`SELECT * FROM token_scales`).all()

  migrate(db, MIGRATIONS, { upTo: 115 })

  expect(readUserVersion(db)).toBe(115)
  expect(db.prepare(`SELECT * FROM token_scales`).all()).toEqual(before)
  expect(db.prepare(`SELECT COUNT(*) AS n FROM token_counts`).get()).toEqual({ n: 0 })
  db.exec(`INSERT INTO token_counts (key, tokens) VALUES ('o200k:abc', 12)`)
  expect(() => db.exec(`INSERT INTO token_counts (key, tokens) VALUES ('o200k:abc', 13)`)).toThrow(/UNIQUE/)
  expect(() => db.exec(`INSERT INTO token_counts (key, tokens) VALUES ('o200k:def', -1)`)).toThrow(/CHECK/)
})
