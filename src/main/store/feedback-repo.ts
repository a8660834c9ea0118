import * as z from '../../shared/zod-mini'
import type { FeedbackRating, FeedbackView } from '../../shared/api'
import type { StoreContext } from './context'
import { StoreNotFoundError } from './errors'
import { integer, text, textOrNull, toRow } from './row'

// 👍 / 👎 per answer. The facts of the answer (question, text, model, last SQL and its database) are copied
// in when it is rated, so the list of what to improve stays readable after the chat is gone.

const ratingSchema = z.enum(['up', 'down'])

export interface NewFeedback {
  projectId: number
  chatId: string
  messageId: string
  runId: string | null
  rating: FeedbackRating
  note: string | null
  question: string
  answer: string
  model: string | null
  sql: string | null
  database: string | null
}

function toFeedback(value: unknown): FeedbackView {
  const row = toRow(value)
  return {
    id: integer(row, 'id'),
    messageId: textOrNull(row, 'message_id'),
    chatId: textOrNull(row, 'chat_id'),
    runId: textOrNull(row, 'run_id'),
    rating: ratingSchema.parse(text(row, 'rating')),
    note: textOrNull(row, 'note'),
    question: text(row, 'question'),
    answer: text(row, 'answer'),
    model: textOrNull(row, 'model'),
    sql: textOrNull(row, 'sql'),
    database: textOrNull(row, 'database_id'),
    correctedSql: textOrNull(row, 'corrected_sql'),
    testCaseFile: textOrNull(row, 'test_case_file'),
    createdAt: text(row, 'created_at'),
    updatedAt: text(row, 'updated_at')
  }
}

export class FeedbackRepo {
  constructor(private readonly context: StoreContext) {}

  /** Rates an answer; rating it again replaces the verdict and the note (a saved case stays recorded). */
  set(feedback: NewFeedback): FeedbackView {
    return this.context.write(() => {
      const now = this.context.now()
      this.context
        .statement(
          `INSERT INTO feedback (project_id, chat_id, message_id, run_id, rating, note, question, answer, model, sql, database_id, created_at, updated_at)
           VALUES (@projectId, @chatId, @messageId, @runId, @rating, @note, @question, @answer, @model, @sql, @database, @now, @now)
           ON CONFLICT (message_id) DO UPDATE SET rating = excluded.rating, note = excluded.note, updated_at = excluded.updated_at`
        )
        .run({ ...feedback, now })
      return this.forMessage(feedback.messageId) ?? missing(feedback.messageId)
    })
  }

  /** The chat a message belongs to. */
  chatOfMessage(messageId: string): string {
    const chatId = this.context.read(() => this.context.statement(`SELECT chat_id FROM messages WHERE id = ?`).pluck().get(messageId))
    if (typeof chatId !== 'string') throw new StoreNotFoundError('message', messageId)
    return chatId
  }

  forMessage(messageId: string): FeedbackView | null {
    return this.context.read(() => {
      const row = this.context.statement(`SELECT * FROM feedback WHERE message_id = ?`).get(messageId)
      return row === undefined ? null : toFeedback(row)
    })
  }

  /** Feedback on the answers of one chat, by message id (for the chat view). */
  forChat(chatId: string): Map<string, FeedbackView> {
    return this.context.read(() => {
      const rows = this.context.statement(`SELECT * FROM feedback WHERE chat_id = ?`).all(chatId).map(toFeedback)
      return new Map(rows.flatMap((row) => (row.messageId ? [[row.messageId, row] as const] : [])))
    })
  }

  /** A project's feedback, newest first; only 👍 or only 👎 when `rating` is given. */
  list(projectId: number, filter: { rating?: FeedbackRating; chatId?: string } = {}): FeedbackView[] {
    return this.context.read(() =>
      this.context
        .statement(
          `SELECT * FROM feedback WHERE project_id = @projectId AND (@rating IS NULL OR rating = @rating) AND (@chatId IS NULL OR chat_id = @chatId)
           ORDER BY updated_at DESC, id DESC`
        )
        .all({ projectId, rating: filter.rating ?? null, chatId: filter.chatId ?? null })
        .map(toFeedback)
    )
  }

  /** Records the test case an answer became (with the corrected SQL when it was corrected). */
  markSaved(messageId: string, file: string, correctedSql: string | null): FeedbackView {
    return this.context.write(() => {
      const changed = this.context
        .statement(`UPDATE feedback SET test_case_file = ?, corrected_sql = ?, updated_at = ? WHERE message_id = ?`)
        .run(file, correctedSql, this.context.now(), messageId).changes
      if (changed === 0) missing(messageId)
      return this.forMessage(messageId) ?? missing(messageId)
    })
  }
}

function missing(messageId: string): never {
  throw new StoreNotFoundError('feedback for message', messageId)
}
