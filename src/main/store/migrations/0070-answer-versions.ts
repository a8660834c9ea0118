import type { Migration } from '../migrate'

// Regenerate and edit-and-resend keep the earlier answer as a version instead of deleting it.
// `turn_id` groups the versions of one question (the id of its first user message); `archived_version` marks
// the messages of an earlier version (one id per archiving step), which leave the live chat, its history
// for the model and its search. `runs.first_token_at` gives each answer its time to first token.
export const answerVersions: Migration = {
  version: 70,
  name: 'answer-versions',
  up(db) {
    db.exec(`
      ALTER TABLE messages ADD COLUMN turn_id TEXT;
      ALTER TABLE messages ADD COLUMN archived_version TEXT;
      CREATE INDEX messages_archived_by_chat ON messages(chat_id, archived_version) WHERE archived_version IS NOT NULL;
      ALTER TABLE runs ADD COLUMN first_token_at TEXT;
    `)
  }
}
