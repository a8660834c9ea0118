import type { Migration } from '../migrate'

// A run still 'running' when its process dies (killed, crashed, power cut) stayed 'running' for ever, its
// answer 'streaming'. Each run now records the process that runs it, so a later start-up can tell a run
// that is really going on in another window (the desktop app and the CLI share the store) from one whose
// process is gone, and mark only the latter interrupted. Runs from before this step have no owner.
export const runOwner: Migration = {
  version: 90,
  name: 'run-owner',
  up(db) {
    db.exec(`
      ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
      CREATE INDEX runs_running ON runs(status) WHERE status = 'running';
    `)
  }
}
