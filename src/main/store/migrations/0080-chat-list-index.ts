import type { Migration } from '../migrate'

// The sidebar lists a project's chats newest first, ties broken by the newer row (`updated_at DESC, rowid
// DESC`). The index from 0010 is sorted `updated_at DESC` with rowids ascending inside a tie, so SQLite sorted
// every list again in a temporary B-tree: with 5,000 chats, tens of milliseconds per list. Ascending and read
// backwards, this index gives exactly the list's order (rowid is its hidden last column), so no sort is left.
export const chatListIndex: Migration = {
  version: 80,
  name: 'chat-list-index',
  up(db) {
    db.exec(`
      CREATE INDEX chats_by_project_updated ON chats(project_id, updated_at);
      DROP INDEX chats_by_project;
    `)
  }
}
