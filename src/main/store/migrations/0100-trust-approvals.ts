import type { Migration } from '../migrate'

// A project folder is untrusted: before it may connect to a server it names, send the user's environment
// variables there, or start a process, the user approves exactly that. Each approval is kept per project
// folder under the fingerprint of what was shown, with that description, so settings can list and revoke it.
export const trustApprovals: Migration = {
  version: 100,
  name: 'trust-approvals',
  up(db) {
    db.exec(`
      CREATE TABLE trust_approvals (
        project_root TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        kind TEXT NOT NULL,
        request_json TEXT NOT NULL,
        approved_at TEXT NOT NULL,
        PRIMARY KEY (project_root, fingerprint)
      );
    `)
  }
}
