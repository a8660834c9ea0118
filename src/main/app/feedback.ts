import type { ChatMessageView, FeedbackRating, FeedbackView, TestCaseDraft } from '../../shared/api'
import { nextTestCaseFile, saveTestCase, testCaseSlug, testCaseYaml } from '../eval/save-test-case'
import type { Store } from '../store'
import type { ProjectSession } from './project-session'

// Feedback that grows the test suite: an answer is rated 👍 / 👎 (with a note), and an answer whose last
// step is a SQL result becomes tests/<slug>.yml — its question, that SQL (or the SQL it should have been)
// and the database the query ran on — after the user has seen the file. An existing case is never replaced.

export class FeedbackError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FeedbackError'
  }
}

interface AnswerFacts {
  chatId: string
  message: ChatMessageView
  question: string
  sql: string | null
  database: string | null
}

export class FeedbackService {
  constructor(private readonly deps: { store: Store; session: () => ProjectSession }) {}

  rate(input: { messageId: string; rating: FeedbackRating; note?: string | null }): FeedbackView {
    const { store } = this.deps
    const facts = this.facts(input.messageId)
    return store.feedback.set({
      projectId: this.deps.session().projectId,
      chatId: facts.chatId,
      messageId: input.messageId,
      runId: facts.message.runId ?? null,
      rating: input.rating,
      note: input.note?.trim() ? input.note.trim() : null,
      question: facts.question,
      answer: facts.message.text,
      model: facts.message.figures?.model ?? (facts.message.runId ? store.runs.getRecord(facts.message.runId).model : null),
      sql: facts.sql,
      database: facts.database
    })
  }

  list(filter: { rating?: FeedbackRating; chatId?: string }): FeedbackView[] {
    return this.deps.store.feedback.list(this.deps.session().projectId, filter)
  }

  /** The case the answer would become, with the file it would be written to; nothing is written. */
  draft(messageId: string, correctedSql?: string): TestCaseDraft {
    const facts = this.facts(messageId)
    const sql = correctedSql?.trim() || facts.sql
    if (!sql) throw new FeedbackError('This answer ran no SQL, so there is nothing to compare a test run with: write the SQL it should have run.')
    const name = testCaseSlug(facts.question)
    const testCase = { name, prompt: facts.question, sql, database: facts.database }
    return { file: nextTestCaseFile(this.deps.session().snapshot().root, name), yaml: testCaseYaml(testCase), ...testCase }
  }

  /** Writes the case (tests/<slug>-2.yml … when the name is taken) and records it on the answer's feedback. */
  save(messageId: string, correctedSql?: string): { file: string; feedback: FeedbackView } {
    const { store } = this.deps
    const draft = this.draft(messageId, correctedSql)
    const file = saveTestCase(this.deps.session().snapshot().root, draft, draft.name)
    // Saving counts as a verdict: a correction is a 👎, a case saved as it was a 👍.
    const corrected = correctedSql?.trim() && correctedSql.trim() !== this.facts(messageId).sql ? correctedSql.trim() : null
    if (!store.feedback.forMessage(messageId)) this.rate({ messageId, rating: corrected ? 'down' : 'up' })
    return { file, feedback: store.feedback.markSaved(messageId, file, corrected) }
  }

  private facts(messageId: string): AnswerFacts {
    const { store } = this.deps
    const chatId = store.feedback.chatOfMessage(messageId)
    if (store.chats.projectOf(chatId) !== this.deps.session().projectId) throw new FeedbackError('That answer belongs to another project.')
    const chat = store.chats.get(chatId)
    const lists = [chat.messages, ...(chat.versions ?? []).map((version) => version.messages)]
    for (const messages of lists) {
      const index = messages.findIndex((candidate) => candidate.id === messageId)
      if (index < 0) continue
      const message = messages[index]
      if (message.role !== 'assistant') throw new FeedbackError('Only answers can be rated.')
      // In a version list the question is the first message; in the live list, the nearest one before.
      const question = messages.slice(0, index).reverse().find((candidate) => candidate.role === 'user')?.text ?? ''
      return { chatId, message, question, ...this.lastSql(message) }
    }
    throw new FeedbackError(`No answer ${messageId} in its chat.`)
  }

  /** The answer's last successful execute_sql and the database it ran on (by its pool id, as the case names it). */
  private lastSql(message: ChatMessageView): { sql: string | null; database: string | null } {
    for (const call of [...(message.toolCalls ?? [])].reverse()) {
      if (call.name !== 'execute_sql' || call.ok !== true || typeof call.args.sql_query !== 'string') continue
      const asked = typeof call.args.database_id === 'string' ? call.args.database_id : undefined
      let database: string | null = asked ?? null
      try {
        database = this.deps.session().databases().find(asked).id
      } catch {
        // The database is gone from the project since: keep the name the model used.
      }
      return { sql: call.args.sql_query, database }
    }
    return { sql: null, database: null }
  }
}
