import * as z from '../../shared/zod-mini'
import { once } from '../../shared/once'
import type { ChatDetail, ChatMessageView, ChatSummary, ChatVersionView, MessageFigures, ToolCallView } from '../../shared/api'
import { DEFAULT_CHAT_TITLE, titleFrom } from '../../shared/chat-title'
import type { StoreContext } from './context'
import { StoreNotFoundError } from './errors'
import { integerOrNull, text, textOrNull, toRow, type Row } from './row'
import { toToolCall } from './runs-repo'

export type MessageRole = 'user' | 'assistant'
export type MessageStatus = 'streaming' | 'done' | 'failed' | 'cancelled'

export interface NewMessage {
  chatId: string
  role: MessageRole
  text: string
  status?: MessageStatus
  runId?: string | null
  reasoning?: string | null
  /** A new version of an earlier question (see archiveMessagesFrom). */
  turnId?: string | null
}

export interface MessageUpdate {
  text?: string
  reasoning?: string | null
  status?: MessageStatus
}

// Made when a message is first read.
const roleSchema = once(() => z.enum(['user', 'assistant']))
const statusSchema = once(() => z.enum(['streaming', 'done', 'failed', 'cancelled']))

/** The columns toSummary reads. */
const SUMMARY_COLUMNS = 'id, title, channel, parent_chat_id, updated_at'

function toSummary(value: unknown): ChatSummary {
  const row = toRow(value)
  return {
    id: text(row, 'id'),
    title: text(row, 'title'),
    channel: textOrNull(row, 'channel'),
    parentChatId: textOrNull(row, 'parent_chat_id'),
    updatedAt: text(row, 'updated_at')
  }
}

function toMessage(value: unknown): ChatMessageView {
  const row = toRow(value)
  const reasoning = textOrNull(row, 'reasoning')
  const runId = textOrNull(row, 'run_id')
  const turnId = textOrNull(row, 'turn_id')
  const figures = 'run_model' in row ? toFigures(row) : null
  return {
    id: text(row, 'id'),
    role: roleSchema().parse(text(row, 'role')),
    text: text(row, 'text'),
    ...(reasoning === null ? {} : { reasoning }),
    ...(runId === null ? {} : { runId }),
    createdAt: text(row, 'created_at'),
    status: statusSchema().parse(text(row, 'status')),
    ...(turnId === null ? {} : { turnId }),
    ...(figures === null ? {} : { figures })
  }
}

/** The figures of the run that wrote an assistant message (columns `run_*` of MESSAGE_WITH_RUN). */
function toFigures(row: Row): MessageFigures | null {
  const requested = textOrNull(row, 'run_model')
  const served = textOrNull(row, 'run_served_model')
  const model = served ?? requested
  const startedAt = textOrNull(row, 'run_started_at')
  if (model === null || startedAt === null || text(row, 'role') !== 'assistant') return null
  const started = Date.parse(startedAt)
  const since = (key: string): number | null => {
    const at = textOrNull(row, key)
    return at === null ? null : Math.max(0, Date.parse(at) - started)
  }
  return {
    model,
    ...(served !== null && requested !== null && served !== requested ? { requestedModel: requested } : {}),
    firstTokenMs: since('run_first_token_at'),
    totalMs: since('run_ended_at'),
    inputTokens: integerOrNull(row, 'run_input_tokens'),
    outputTokens: integerOrNull(row, 'run_output_tokens')
  }
}

const MESSAGE_WITH_RUN = `SELECT m.*, r.model AS run_model, r.served_model AS run_served_model, r.started_at AS run_started_at, r.first_token_at AS run_first_token_at,
    r.ended_at AS run_ended_at, r.input_tokens AS run_input_tokens, r.output_tokens AS run_output_tokens
  FROM messages m LEFT JOIN runs r ON r.id = m.run_id`

/** `%` and `_` typed by the user are literal characters, not wildcards. */
function likePattern(search: string): string {
  return '%' + search.replace(/[\\%_]/g, (char) => '\\' + char) + '%'
}

export class ChatsRepo {
  constructor(private readonly context: StoreContext) {}

  /** `purpose: 'evaluation'`: a test case's chat, kept out of `list` (the Tests panel shows it). */
  create(projectId: number, options: { title?: string; channel?: string | null; purpose?: 'chat' | 'evaluation' } = {}): ChatSummary {
    const id = this.context.newId()
    const now = this.context.now()
    this.context.write(() =>
      this.context
        .statement(
          `INSERT INTO chats (id, project_id, title, channel, purpose, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`
        )
        .run(id, projectId, options.title?.trim() || DEFAULT_CHAT_TITLE, options.channel ?? null, options.purpose ?? 'chat', now, now)
    )
    return this.summary(id)
  }

  /** Newest first; `search` matches the title or any message's text (case-insensitive for ASCII). */
  list(projectId: number, search?: string): ChatSummary[] {
    const query = search?.trim()
    const rows = this.context.read(() =>
      query
        ? this.context
            .statement(
              `SELECT * FROM chats c WHERE c.project_id = @projectId AND c.purpose = 'chat'
                 AND (c.title LIKE @pattern ESCAPE '\\'
                      OR EXISTS (SELECT 1 FROM messages m WHERE m.chat_id = c.id AND m.archived_version IS NULL
                                   AND m.text LIKE @pattern ESCAPE '\\'))
               ORDER BY c.updated_at DESC, c.rowid DESC`
            )
            .all({ pattern: likePattern(query), projectId })
        : this.context
            // In the order of chats_for_list (0080) read backwards: no sort.
            .statement(`SELECT ${SUMMARY_COLUMNS} FROM chats WHERE project_id = ? AND purpose = 'chat' ORDER BY updated_at DESC, rowid DESC`)
            .all(projectId)
    )
    return rows.map(toSummary)
  }

  summary(chatId: string): ChatSummary {
    const row = this.context.read(() => this.context.statement(`SELECT * FROM chats WHERE id = ?`).get(chatId))
    if (row === undefined) throw new StoreNotFoundError('chat', chatId)
    return toSummary(row)
  }

  /**
   * The chat with its live messages in order, each assistant message carrying its run's tool calls and
   * figures, and the earlier versions of its questions.
   */
  /** The project a chat belongs to (an answer given in one project is never acted on from another). */
  projectOf(chatId: string): number {
    const row = this.context.read(() =>
      this.context.statement(`SELECT project_id FROM chats WHERE id = ?`).pluck().get(chatId)
    )
    if (typeof row !== 'number') throw new StoreNotFoundError('chat', chatId)
    return row
  }

  get(chatId: string): ChatDetail {
    return this.context.read(() => {
      const value = this.context.statement(`SELECT * FROM chats WHERE id = ?`).get(chatId)
      if (value === undefined) throw new StoreNotFoundError('chat', chatId)
      const rows = this.context
        .statement(`${MESSAGE_WITH_RUN} WHERE m.chat_id = ? ORDER BY m.created_at, m.rowid`)
        .all(chatId)
        .map(toRow)
      const callsByRun = new Map<string, ToolCallView[]>()
      const callRows = this.context
        .statement(
          `SELECT t.* FROM tool_calls t JOIN runs r ON r.id = t.run_id WHERE r.chat_id = ? ORDER BY t.id`
        )
        .all(chatId)
      for (const callRow of callRows) {
        const row = toRow(callRow)
        const runId = text(row, 'run_id')
        const calls = callsByRun.get(runId) ?? []
        calls.push(toToolCall(row))
        callsByRun.set(runId, calls)
      }
      const withCalls = (message: ChatMessageView): ChatMessageView => {
        const calls = message.role === 'assistant' && message.runId ? callsByRun.get(message.runId) : undefined
        return calls ? { ...message, toolCalls: calls } : message
      }
      const live: ChatMessageView[] = []
      const versions = new Map<string, ChatVersionView>()
      for (const messageRow of rows) {
        const message = withCalls(toMessage(messageRow))
        const archived = textOrNull(messageRow, 'archived_version')
        if (archived === null) {
          live.push(message)
          continue
        }
        const version = versions.get(archived)
        // A version is named by its first message, the question that was regenerated or edited.
        if (version) version.messages.push(message)
        else versions.set(archived, { id: archived, turnId: message.turnId ?? message.id, messages: [message] })
      }
      const row = toRow(value)
      return {
        ...toSummary(row),
        selection: textOrNull(row, 'selection'),
        parentMessageId: textOrNull(row, 'parent_message_id'),
        messages: live,
        ...(versions.size > 0 ? { versions: [...versions.values()] } : {})
      }
    })
  }

  messages(chatId: string): ChatMessageView[] {
    return this.context
      .read(() =>
        this.context
          .statement(`SELECT * FROM messages WHERE chat_id = ? AND archived_version IS NULL ORDER BY created_at, rowid`)
          .all(chatId)
      )
      .map(toMessage)
  }

  /** The last `limit` messages, oldest first (history for the model, input for memory extraction). */
  recentMessages(chatId: string, limit: number): ChatMessageView[] {
    return this.context
      .read(() =>
        this.context
          .statement(
            `SELECT * FROM messages WHERE chat_id = ? AND archived_version IS NULL
             ORDER BY created_at DESC, rowid DESC LIMIT ?`
          )
          .all(chatId, limit)
      )
      .map(toMessage)
      .reverse()
  }

  rename(chatId: string, title: string): ChatSummary {
    this.context.write(() => {
      const result = this.context
        .statement(`UPDATE chats SET title = ?, updated_at = ? WHERE id = ?`)
        .run(title.trim() || DEFAULT_CHAT_TITLE, this.context.now(), chatId)
      if (result.changes === 0) throw new StoreNotFoundError('chat', chatId)
    })
    return this.summary(chatId)
  }

  /** Deletes the chat with its messages, runs, tool calls and snapshots; forks of it keep living, unparented. */
  delete(chatId: string): void {
    this.context.write(() => {
      const result = this.context.statement(`DELETE FROM chats WHERE id = ?`).run(chatId)
      if (result.changes === 0) throw new StoreNotFoundError('chat', chatId)
    })
  }

  /** A new chat about `selection`, a passage of `messageId` in `chatId`; the prompt quotes it as focus. */
  fork(chatId: string, messageId: string, selection: string, title?: string): ChatSummary {
    const id = this.context.newId()
    this.context.write(() => {
      const parent = this.context
        .statement(
          `SELECT c.project_id, c.channel FROM chats c JOIN messages m ON m.chat_id = c.id WHERE c.id = ? AND m.id = ?`
        )
        .get(chatId, messageId)
      if (parent === undefined) throw new StoreNotFoundError('message in chat', `${chatId}/${messageId}`)
      const row = toRow(parent)
      const now = this.context.now()
      const forkTitle = title?.trim() || `Fork: ${titleFrom(selection)}`
      this.context
        .statement(
          `INSERT INTO chats (id, project_id, title, channel, parent_chat_id, parent_message_id, selection, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
        )
        .run(id, row.project_id, forkTitle, textOrNull(row, 'channel'), chatId, messageId, selection, now, now)
    })
    return this.summary(id)
  }

  /**
   * Keeps `messageId` (a user message) and every later live message as an earlier version of that question
   * (regenerate, edit and resend): they leave the live chat but stay readable, with their runs. Returns the
   * turn id the next version of the question must carry.
   */
  archiveMessagesFrom(chatId: string, messageId: string): { turnId: string } {
    return this.context.write(() => {
      const from = this.context
        .statement(
          `SELECT created_at, rowid AS position, coalesce(turn_id, id) AS turn FROM messages
           WHERE chat_id = ? AND id = ? AND role = 'user' AND archived_version IS NULL`
        )
        .get(chatId, messageId)
      if (from === undefined) throw new StoreNotFoundError('question in chat', `${chatId}/${messageId}`)
      const row = toRow(from)
      const turnId = text(row, 'turn')
      this.context.statement(`UPDATE messages SET turn_id = ? WHERE id = ?`).run(turnId, messageId)
      this.context
        .statement(
          `UPDATE messages SET archived_version = ?
           WHERE chat_id = ? AND archived_version IS NULL AND (created_at, rowid) >= (?, ?)`
        )
        .run(this.context.newId(), chatId, text(row, 'created_at'), row.position)
      return { turnId }
    })
  }

  addMessage(message: NewMessage): ChatMessageView {
    const id = this.context.newId()
    const now = this.context.now()
    this.context.write(() => {
      this.context
        .statement(
          `INSERT INTO messages (id, chat_id, role, text, reasoning, status, run_id, created_at, turn_id)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
        )
        .run(
          id,
          message.chatId,
          message.role,
          message.text,
          message.reasoning ?? null,
          message.status ?? 'done',
          message.runId ?? null,
          now,
          message.turnId ?? null
        )
      this.context.statement(`UPDATE chats SET updated_at = ? WHERE id = ?`).run(now, message.chatId)
    })
    return {
      id,
      role: message.role,
      text: message.text,
      ...(message.reasoning ? { reasoning: message.reasoning } : {}),
      ...(message.runId ? { runId: message.runId } : {}),
      createdAt: now,
      status: message.status ?? 'done',
      ...(message.turnId ? { turnId: message.turnId } : {})
    }
  }

  /** Saves a streaming message's text so far (or its final state); fields left out keep their value. */
  updateMessage(messageId: string, update: MessageUpdate): ChatMessageView {
    this.context.write(() => {
      const result = this.context
        .statement(
          `UPDATE messages SET text = coalesce(?, text),
             reasoning = CASE WHEN ? THEN ? ELSE reasoning END,
             status = coalesce(?, status)
           WHERE id = ?`
        )
        .run(
          update.text ?? null,
          update.reasoning === undefined ? 0 : 1,
          update.reasoning ?? null,
          update.status ?? null,
          messageId
        )
      if (result.changes === 0) throw new StoreNotFoundError('message', messageId)
    })
    return this.message(messageId)
  }

  message(messageId: string): ChatMessageView {
    const row = this.context.read(() =>
      this.context.statement(`SELECT * FROM messages WHERE id = ?`).get(messageId)
    )
    if (row === undefined) throw new StoreNotFoundError('message', messageId)
    return toMessage(row)
  }
}
