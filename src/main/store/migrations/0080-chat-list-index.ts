import type { Migration } from '../migrate'

// The sidebar lists a project's chats (purpose 'chat', see 0060) newest first, ties broken by the newer row
// (`updated_at DESC, rowid DESC`). The index from 0010 is sorted `updated_at DESC` with rowids ascending inside
// a tie, and knows nothing of purpose, so SQLite sorted every list again in a temporary B-tree: with 5,000
// chats, tens of milliseconds per list. Ascending and read backwards, this index gives exactly the list's
// order (rowid is its hidden last column) for one project and purpose, so no sort is left.
export const chatListIndex: Migration = {
  version: 80,
  name: 'chat-list-index',
  up(db) {
    db.exec(`
      CREATE INDEX chats_for_list ON chats(project_id, purpose, updated_at);
      DROP INDEX chats_by_project;
    `)
  }
}
