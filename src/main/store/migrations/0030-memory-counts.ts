import type { Migration } from '../migrate'

// The prompt says how many memories the budget left out, which needs the number of selectable memories.
// Counting them scans the whole index (tens of ms at 100,000), so triggers keep a count per project and
// category instead. Also indexes memories by chat: the current chat's memories are subtracted from that
// count, and deleting a chat (which clears their chat_id) must not scan the table.
export const memoryCounts: Migration = {
  version: 30,
  name: 'memory-counts',
  up(db) {
    db.exec(`
      CREATE TABLE memory_counts (
        project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        category TEXT NOT NULL,
        selectable INTEGER NOT NULL,
        PRIMARY KEY (project_id, category)
      ) STRICT, WITHOUT ROWID;

      INSERT INTO memory_counts (project_id, category, selectable)
        SELECT project_id, category, count(*) FROM memories
        WHERE enabled = 1 AND superseded_by IS NULL GROUP BY project_id, category;

      CREATE TRIGGER memory_counts_after_insert AFTER INSERT ON memories
        WHEN NEW.enabled = 1 AND NEW.superseded_by IS NULL
      BEGIN
        INSERT INTO memory_counts (project_id, category, selectable) VALUES (NEW.project_id, NEW.category, 1)
          ON CONFLICT (project_id, category) DO UPDATE SET selectable = selectable + 1;
      END;

      CREATE TRIGGER memory_counts_after_delete AFTER DELETE ON memories
        WHEN OLD.enabled = 1 AND OLD.superseded_by IS NULL
      BEGIN
        UPDATE memory_counts SET selectable = selectable - 1
          WHERE project_id = OLD.project_id AND category = OLD.category;
      END;

      CREATE TRIGGER memory_counts_after_update AFTER UPDATE OF project_id, category, enabled, superseded_by ON memories
      BEGIN
        UPDATE memory_counts SET selectable = selectable - 1
          WHERE OLD.enabled = 1 AND OLD.superseded_by IS NULL
            AND project_id = OLD.project_id AND category = OLD.category;
        INSERT INTO memory_counts (project_id, category, selectable)
          SELECT NEW.project_id, NEW.category, 1 WHERE NEW.enabled = 1 AND NEW.superseded_by IS NULL
          ON CONFLICT (project_id, category) DO UPDATE SET selectable = selectable + 1;
      END;

      CREATE INDEX memories_by_chat ON memories(chat_id, project_id, category)
        WHERE enabled = 1 AND superseded_by IS NULL;
    `)
  }
}
