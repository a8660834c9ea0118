import { countTokens } from '../../prompt/tokens'
import type { Migration } from '../migrate'

// Memory selection runs before every prompt over possibly many thousands of memories. Counting tokens there
// (or even loading every row into JavaScript) is too slow, so each memory keeps its token count, and a
// partial index holds exactly the selectable rows in selection order, with what the walk needs to read.
export const memoryTokens: Migration = {
  version: 20,
  name: 'memory-tokens',
  up(db) {
    db.exec(`ALTER TABLE memories ADD COLUMN tokens INTEGER NOT NULL DEFAULT 0`)
    const rows = db.prepare(`SELECT id, content FROM memories`).all()
    const update = db.prepare(`UPDATE memories SET tokens = ? WHERE id = ?`)
    for (const row of rows) {
      if (typeof row !== 'object' || row === null || !('id' in row) || !('content' in row)) continue
      if (typeof row.content === 'string') update.run(countTokens(row.content), row.id)
    }
    db.exec(`
      CREATE INDEX memories_selectable ON memories(project_id, category, created_at DESC, id DESC, tokens, chat_id)
        WHERE enabled = 1 AND superseded_by IS NULL;
      CREATE INDEX memories_smallest ON memories(project_id, category, tokens, chat_id)
        WHERE enabled = 1 AND superseded_by IS NULL;
    `)
  }
}
