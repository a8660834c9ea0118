import type { Migration } from '../migrate'

// Query results were once kept in their own table for charts and citations; they are read from the tool call
// that produced them instead, and nothing has written the table since. Dropping it keeps the schema honest
// about where results live.
export const dropQueryResults: Migration = {
  version: 130,
  name: 'drop-query-results',
  up(db) {
    db.exec(`DROP TABLE query_results`)
  }
}
