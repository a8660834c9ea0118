import { describe, expect, it } from 'vitest'
import type { FeedbackView } from '../../../shared/api'
import { feedbackToCsv } from './feedback-csv'
import { parseCsv } from './csv'

const entry: FeedbackView = {
  id: 1,
  messageId: 'm',
  chatId: 'c',
  runId: 'r',
  rating: 'down',
  note: 'Wrong: "revenue" excludes returns,\nsee RULES.md',
  question: 'Revenue, by month?',
  answer: '=SUM(A1)',
  model: 'qwen2.5:7b',
  sql: "SELECT month, SUM(amount)\nFROM orders\nWHERE status <> 'returned'",
  database: 'shop',
  correctedSql: null,
  testCaseFile: null,
  createdAt: '2026-12-01T10:00:00.000Z',
  updatedAt: '2026-12-01T10:05:00.000Z'
}

describe('feedback as CSV', () => {
  it('quotes commas, quotes and newlines so every field reads back as it was', () => {
    const rows = parseCsv(feedbackToCsv([entry]))
    expect(rows[0]).toEqual(['date', 'rating', 'question', 'note', 'sql', 'database', 'corrected_sql', 'test_case', 'model', 'answer'])
    expect(rows[1]).toEqual(['2026-12-01T10:05:00.000Z', 'bad', 'Revenue, by month?', entry.note, entry.sql, 'shop', '', '', 'qwen2.5:7b', "'=SUM(A1)"])
    expect(rows).toHaveLength(2)
  })
})
