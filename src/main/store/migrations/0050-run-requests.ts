import type { Migration } from '../migrate'

// Every request a run sends, round by round, exactly as it went over the wire (the JSON body the HTTP
// client handed to fetch), so the inspector can show each round and copy the body byte for byte.
export const runRequests: Migration = {
  version: 50,
  name: 'run-requests',
  up(db) {
    db.exec(`
      CREATE TABLE run_requests (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        round INTEGER NOT NULL CHECK (round >= 1),
        url TEXT NOT NULL,
        body TEXT NOT NULL,
        sent_at TEXT NOT NULL,
        PRIMARY KEY (run_id, round)
      ) STRICT, WITHOUT ROWID;
    `)
  }
}
