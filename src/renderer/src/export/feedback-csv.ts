import type { FeedbackView } from '../../../shared/api'
import { tableToCsv } from './csv'

// The feedback list as CSV, quoted like every other export (notes and SQL hold commas, quotes and newlines).

export const FEEDBACK_COLUMNS = ['date', 'rating', 'question', 'note', 'sql', 'database', 'corrected_sql', 'test_case', 'model', 'answer'] as const

export function feedbackToCsv(list: readonly FeedbackView[]): string {
  return tableToCsv({
    columns: [...FEEDBACK_COLUMNS],
    rows: list.map((entry) => [entry.updatedAt, entry.rating === 'up' ? 'good' : 'bad', entry.question, entry.note, entry.sql, entry.database, entry.correctedSql, entry.testCaseFile, entry.model, entry.answer])
  })
}
