import type { Migration } from '../migrate'

// The first schema. Text ids (UUIDs) for chats, messages and runs, which are created from several places;
// integer ids for memories, which people type on the command line. Times are ISO-8601 UTC strings, so they
// sort as text. JSON columns hold data the store only passes through (validated when read back).
export const initial: Migration = {
  version: 10,
  name: 'initial',
  up(db) {
    db.exec(`
      CREATE TABLE projects (
        id INTEGER PRIMARY KEY,
        root_path TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        memory_enabled INTEGER NOT NULL DEFAULT 1 CHECK (memory_enabled IN (0, 1)),
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE chats (
        id TEXT PRIMARY KEY,
        project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        channel TEXT,
        parent_chat_id TEXT REFERENCES chats(id) ON DELETE SET NULL,
        parent_message_id TEXT,
        selection TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX chats_by_project ON chats(project_id, updated_at DESC);
      CREATE INDEX chats_by_parent ON chats(parent_chat_id);

      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        test_mode INTEGER NOT NULL DEFAULT 0 CHECK (test_mode IN (0, 1)),
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'cancelled')),
        input_tokens INTEGER,
        output_tokens INTEGER,
        stop_reason TEXT,
        error TEXT,
        started_at TEXT NOT NULL,
        ended_at TEXT
      ) STRICT;
      CREATE INDEX runs_by_chat ON runs(chat_id);

      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        text TEXT NOT NULL,
        reasoning TEXT,
        status TEXT NOT NULL CHECK (status IN ('streaming', 'done', 'failed', 'cancelled')),
        run_id TEXT REFERENCES runs(id) ON DELETE SET NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      -- rowid breaks ties between messages created in the same millisecond.
      CREATE INDEX messages_by_chat ON messages(chat_id, created_at);
      CREATE INDEX messages_by_run ON messages(run_id);

      CREATE TABLE tool_calls (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        name TEXT NOT NULL,
        args_json TEXT NOT NULL,
        ok INTEGER CHECK (ok IN (0, 1)),
        output TEXT NOT NULL DEFAULT '',
        data_json TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      -- Not unique: some local servers reuse call ids ("call_0") in every round.
      CREATE INDEX tool_calls_by_run ON tool_calls(run_id, call_id);

      CREATE TABLE prompt_snapshots (
        run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        system TEXT NOT NULL,
        user TEXT NOT NULL,
        messages_json TEXT NOT NULL,
        sections_json TEXT NOT NULL,
        budget_json TEXT,
        memory_json TEXT NOT NULL,
        diagnostics_json TEXT NOT NULL,
        override_mode TEXT NOT NULL CHECK (override_mode IN ('default', 'replaced', 'wrapped', 'runtime'))
      ) STRICT;

      CREATE TABLE memories (
        id INTEGER PRIMARY KEY,
        project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        category TEXT NOT NULL CHECK (category IN ('global_rule', 'personal_fact')),
        content TEXT NOT NULL CHECK (length(content) > 0),
        chat_id TEXT REFERENCES chats(id) ON DELETE SET NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        -- No foreign key: a memory superseded by one the user later deleted stays retired.
        superseded_by INTEGER,
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1))
      ) STRICT;
      CREATE INDEX memories_by_project ON memories(project_id, created_at DESC);

      -- project_id NULL = a global setting. Values are JSON.
      CREATE TABLE settings (
        project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value_json TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX settings_by_key ON settings(ifnull(project_id, 0), key);

      CREATE TABLE query_results (
        id INTEGER PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        query_id TEXT NOT NULL,
        sql TEXT NOT NULL,
        columns_json TEXT NOT NULL,
        rows_json TEXT NOT NULL,
        row_count INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (run_id, query_id)
      ) STRICT;

      CREATE TABLE test_runs (
        id TEXT PRIMARY KEY,
        project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        started_at TEXT NOT NULL,
        ended_at TEXT
      ) STRICT;

      CREATE TABLE test_results (
        id INTEGER PRIMARY KEY,
        test_run_id TEXT NOT NULL REFERENCES test_runs(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('passed', 'failed', 'error')),
        expected_json TEXT,
        actual_json TEXT,
        sql TEXT,
        run_id TEXT REFERENCES runs(id) ON DELETE SET NULL,
        ms REAL NOT NULL,
        tokens INTEGER NOT NULL,
        message TEXT
      ) STRICT;
      CREATE INDEX test_results_by_run ON test_results(test_run_id);
    `)
  }
}
