import type { Migration } from '../migrate'

// Token counts by content hash, kept between processes: the tokenizer costs ~100 ms to load and a 200 KB
// RULES.md ~40 ms to count, so a prompt whose parts were counted before (the same project opened again, the
// CLI run again) needs neither. Rows are only ever added; the oldest go once there are too many.
export const tokenCounts: Migration = {
  version: 115,
  name: 'token-counts',
  up(db) {
    db.exec(`CREATE TABLE token_counts (key TEXT NOT NULL UNIQUE, tokens INTEGER NOT NULL CHECK (tokens >= 0))`)
  }
}
