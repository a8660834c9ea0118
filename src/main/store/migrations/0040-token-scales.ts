import type { Migration } from '../migrate'

// How far each model's own tokenizer runs above our BPE estimate, learned from exact counts and reported
// usage. Kept per server and model so every process (the app, web mode, each CLI command) starts from what
// earlier ones learned instead of from 1.
export const tokenScales: Migration = {
  version: 40,
  name: 'token-scales',
  up(db) {
    db.exec(`
      CREATE TABLE token_scales (
        endpoint TEXT NOT NULL,
        model TEXT NOT NULL,
        scale REAL NOT NULL CHECK (scale > 0),
        observations INTEGER NOT NULL DEFAULT 1,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (endpoint, model)
      ) STRICT, WITHOUT ROWID;
    `)
  }
}
