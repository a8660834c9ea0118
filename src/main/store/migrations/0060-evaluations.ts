import type { Migration } from '../migrate'

// Evaluations: one suite run across several models. An evaluation has one row per model (with the
// system prompt it was given, so two evaluations can be compared), and one row per case and model with its
// outcome class and figures. Replaces test_runs/test_results, whose rows are carried over (their model was
// not recorded; the run they point at knows it).
// Chats made for evaluation cases are marked, so the chat list shows only the analyst's own chats; the
// chats of earlier test runs are marked too.
export const evaluations: Migration = {
  version: 60,
  name: 'evaluations',
  up(db) {
    db.exec(`
      CREATE TABLE evaluations (
        id TEXT PRIMARY KEY,
        project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'cancelled')),
        started_at TEXT NOT NULL,
        ended_at TEXT
      ) STRICT;
      CREATE INDEX evaluations_by_project ON evaluations(project_id, started_at DESC);

      CREATE TABLE evaluation_models (
        id INTEGER PRIMARY KEY,
        evaluation_id TEXT NOT NULL REFERENCES evaluations(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        model TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        system_prompt_hash TEXT NOT NULL,
        system_prompt TEXT NOT NULL,
        UNIQUE (evaluation_id, endpoint, model)
      ) STRICT;

      CREATE TABLE evaluation_cases (
        id INTEGER PRIMARY KEY,
        evaluation_model_id INTEGER NOT NULL REFERENCES evaluation_models(id) ON DELETE CASCADE,
        file TEXT NOT NULL,
        name TEXT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('passed', 'failed: wrong result', 'failed: no SQL', 'error: tool',
          'error: loop guard', 'error: round limit', 'timeout', 'error: run')),
        message TEXT,
        expected_json TEXT,
        actual_json TEXT,
        sql TEXT,
        rounds INTEGER NOT NULL,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        first_token_ms REAL,
        ms REAL NOT NULL,
        run_id TEXT REFERENCES runs(id) ON DELETE SET NULL,
        audit_json TEXT,
        UNIQUE (evaluation_model_id, file)
      ) STRICT;

      ALTER TABLE chats ADD COLUMN purpose TEXT NOT NULL DEFAULT 'chat' CHECK (purpose IN ('chat', 'evaluation'));
      UPDATE chats SET purpose = 'evaluation'
        WHERE id IN (SELECT r.chat_id FROM runs r JOIN test_results t ON t.run_id = r.id);

      INSERT INTO evaluations (id, project_id, status, started_at, ended_at)
        SELECT id, project_id, CASE WHEN ended_at IS NULL THEN 'cancelled' ELSE 'done' END, started_at, ended_at
        FROM test_runs;
      INSERT INTO evaluation_models (evaluation_id, position, model, endpoint, system_prompt_hash, system_prompt)
        SELECT tr.id, 0,
          coalesce((SELECT r.model FROM test_results t JOIN runs r ON r.id = t.run_id WHERE t.test_run_id = tr.id LIMIT 1), 'unknown'),
          coalesce((SELECT r.endpoint FROM test_results t JOIN runs r ON r.id = t.run_id WHERE t.test_run_id = tr.id LIMIT 1), 'unknown'),
          '', ''
        FROM test_runs tr;
      INSERT OR IGNORE INTO evaluation_cases (evaluation_model_id, file, name, outcome, message, expected_json, actual_json, sql,
          rounds, input_tokens, output_tokens, first_token_ms, ms, run_id, audit_json)
        SELECT m.id, t.name, t.name,
          CASE
            WHEN t.status = 'passed' THEN 'passed'
            WHEN t.status = 'failed' AND t.sql IS NULL THEN 'failed: no SQL'
            WHEN t.status = 'failed' THEN 'failed: wrong result'
            ELSE 'error: run'
          END,
          t.message, t.expected_json, t.actual_json, t.sql, 0, t.tokens, 0, NULL, t.ms, t.run_id, NULL
        FROM test_results t JOIN evaluation_models m ON m.evaluation_id = t.test_run_id
        ORDER BY t.id;

      DROP TABLE test_results;
      DROP TABLE test_runs;
    `)
  }
}
