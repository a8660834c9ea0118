import Database from 'better-sqlite3'
import { expect, it } from 'vitest'
import { migrate, readUserVersion } from '../migrate'
import { MIGRATIONS } from '.'

it('0060-evaluations carries earlier test runs over as evaluations and hides their chats from the chat list', () => {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  migrate(db, MIGRATIONS, { upTo: 59 })
  db.exec(`
    INSERT INTO projects (id, root_path, name, created_at) VALUES (1, '/shop', 'shop', 't');
    INSERT INTO chats (id, project_id, title, created_at, updated_at) VALUES
      ('c-user', 1, 'My question', 't1', 't1'), ('c-test', 1, 'Test: revenue', 't2', 't2');
    INSERT INTO runs (id, chat_id, model, endpoint, test_mode, status, started_at) VALUES
      ('r-user', 'c-user', 'qwen', 'http://127.0.0.1:11434/v1', 0, 'done', 't1'),
      ('r-test', 'c-test', 'qwen', 'http://127.0.0.1:11434/v1', 1, 'done', 't2');
    INSERT INTO test_runs (id, project_id, started_at, ended_at) VALUES ('tr1', 1, '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z');
    INSERT INTO test_results (test_run_id, name, status, expected_json, actual_json, sql, run_id, ms, tokens, message) VALUES
      ('tr1', 'revenue', 'passed', '[[1]]', '[[1]]', 'SELECT 1', 'r-test', 812.5, 900, NULL),
      ('tr1', 'orders', 'failed', '[[2]]', NULL, NULL, NULL, 10, 5, 'the agent ran no SQL query'),
      ('tr1', 'broken', 'error', NULL, NULL, NULL, NULL, 0, 0, 'tests/broken.yml is not valid YAML');
  `)

  migrate(db, MIGRATIONS, { upTo: 60 })

  expect(readUserVersion(db)).toBeGreaterThanOrEqual(60)
  expect(db.prepare(`SELECT id, purpose FROM chats ORDER BY id`).all()).toEqual([
    { id: 'c-test', purpose: 'evaluation' },
    { id: 'c-user', purpose: 'chat' }
  ])
  expect(db.prepare(`SELECT id, project_id, status, started_at, ended_at FROM evaluations`).all()).toEqual([
    { id: 'tr1', project_id: 1, status: 'done', started_at: '2026-01-01T00:00:00Z', ended_at: '2026-01-01T00:01:00Z' }
  ])
  expect(db.prepare(`SELECT evaluation_id, model, endpoint FROM evaluation_models`).all()).toEqual([
    { evaluation_id: 'tr1', model: 'qwen', endpoint: 'http://127.0.0.1:11434/v1' }
  ])
  expect(db.prepare(`SELECT name, outcome, ms, input_tokens, run_id, message FROM evaluation_cases ORDER BY id`).all()).toEqual([
    { name: 'revenue', outcome: 'passed', ms: 812.5, input_tokens: 900, run_id: 'r-test', message: null },
    { name: 'orders', outcome: 'failed: no SQL', ms: 10, input_tokens: 5, run_id: null, message: 'the agent ran no SQL query' },
    { name: 'broken', outcome: 'error: run', ms: 0, input_tokens: 0, run_id: null, message: 'tests/broken.yml is not valid YAML' }
  ])
  expect(db.prepare(`SELECT name FROM sqlite_master WHERE name IN ('test_runs', 'test_results')`).all()).toEqual([])
  expect(() => db.exec(`INSERT INTO evaluation_cases (evaluation_model_id, file, name, outcome, rounds, input_tokens, output_tokens, ms)
    VALUES (1, 'tests/x.yml', 'x', 'maybe', 0, 0, 0, 0)`)).toThrow(/CHECK/)
})
