import type { Migration } from '../migrate'

// What the server said, beside what Glassbox asked: the model that answered (a server may answer any
// name it is asked for, e.g. llama.cpp, so the label must come from its response) and each round's own
// token counts, so a run's totals can be read back into the rounds they sum. Older rows say nothing (null).
export const servedModel: Migration = {
  version: 120,
  name: 'served-model',
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN served_model TEXT;
      ALTER TABLE run_requests ADD COLUMN input_tokens INTEGER;
      ALTER TABLE run_requests ADD COLUMN output_tokens INTEGER;
      ALTER TABLE run_requests ADD COLUMN served_model TEXT;
    `)
  }
}
