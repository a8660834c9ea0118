import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

it('0105-evaluation-verdicts adds verdict columns to evaluation cases, keeping every stored case (verdict unknown)', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 104 })
  db.exec(`INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/a', 'a', 't')`)
  db.exec(`INSERT INTO evaluations (id, project_id, status, started_at) VALUES ('e', 1, 'done', 't')`)
  db.exec(`INSERT INTO evaluation_models (id, evaluation_id, position, model, endpoint, system_prompt_hash, system_prompt) VALUES (1, 'e', 0, 'm', 'x', 'h', 'p')`)
  db.exec(`INSERT INTO evaluation_cases (evaluation_model_id, file, name, outcome, rounds, input_tokens, output_tokens, ms) VALUES (1, 'tests/a.yml', 'a', 'passed', 1, 10, 2, 5)`)
  const before = db.prepare(`SELECT * FROM evaluation_cases`).all()

  migrate(db, MIGRATIONS, { upTo: 105 })

  expect(readUserVersion(db)).toBe(105)
  const after = db.prepare(`SELECT * FROM evaluation_cases`).all()
  const unknown = { verdict: null, rule: null, expected_database: null, actual_database: null, matched_sql: null, category: null }
  expect(after).toEqual(before.map((row) => ({ ...(row as object), ...unknown })))
})
