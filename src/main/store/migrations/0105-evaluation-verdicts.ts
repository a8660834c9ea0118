import type { Migration } from '../migrate'

// Each evaluated case keeps its verdict: the one line naming the rule that decided it, the rule's id, the
// databases the expected SQL and the agent's last query ran on, which acceptable SQL matched, and the case's
// category (for pass rates per category). Cases stored before this step have none of them (NULL).
export const evaluationVerdicts: Migration = {
  version: 105,
  name: 'evaluation-verdicts',
  up(db) {
    db.exec(`
      ALTER TABLE evaluation_cases ADD COLUMN verdict TEXT;
      ALTER TABLE evaluation_cases ADD COLUMN rule TEXT;
      ALTER TABLE evaluation_cases ADD COLUMN expected_database TEXT;
      ALTER TABLE evaluation_cases ADD COLUMN actual_database TEXT;
      ALTER TABLE evaluation_cases ADD COLUMN matched_sql INTEGER;
      ALTER TABLE evaluation_cases ADD COLUMN category TEXT;
    `)
  }
}
