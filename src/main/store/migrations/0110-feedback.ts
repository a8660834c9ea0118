import type { Migration } from '../migrate'

// 👍 / 👎 on an answer, with an optional note, stored with its run. The question, the answer's last SQL and
// the database it ran on are copied in, so the feedback list (what to improve) outlives a deleted chat; the
// links to the chat, message and run then become null. One verdict per answer: rating again replaces it.
// test_case_file records the tests/<slug>.yml the answer (or its corrected SQL) was saved as.
export const feedback: Migration = {
  version: 110,
  name: 'feedback',
  up(db) {
    db.exec(`
      CREATE TABLE feedback (
        id INTEGER PRIMARY KEY,
        project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        chat_id TEXT REFERENCES chats(id) ON DELETE SET NULL,
        message_id TEXT UNIQUE REFERENCES messages(id) ON DELETE SET NULL,
        run_id TEXT REFERENCES runs(id) ON DELETE SET NULL,
        rating TEXT NOT NULL CHECK (rating IN ('up', 'down')),
        note TEXT,
        question TEXT NOT NULL,
        answer TEXT NOT NULL,
        model TEXT,
        sql TEXT,
        database_id TEXT,
        corrected_sql TEXT,
        test_case_file TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX feedback_by_project ON feedback(project_id, rating, updated_at DESC);
      -- The chat view reads a chat's verdicts; deleting a chat or run nulls its links without a scan.
      CREATE INDEX feedback_by_chat ON feedback(chat_id);
      CREATE INDEX feedback_by_run ON feedback(run_id);
    `)
  }
}
