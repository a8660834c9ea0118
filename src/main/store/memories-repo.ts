import * as z from '../../shared/zod-mini'
import type { MemoryView } from '../../shared/api'
import type { MemoryCategory, MemoryItem } from '../../shared/prompt'
import { countTokens } from '../prompt/tokens'
import type { StoreContext } from './context'
import { StoreNotFoundError } from './errors'
import { bit, flag, integer, integerOrNull, text, textOrNull, toRow } from './row'

export interface NewMemory {
  category: MemoryCategory
  content: string
  /** The chat it was learned in (null when the user added it by hand). */
  chatId?: string | null
}

export interface ExtractedMemory extends NewMemory {
  /** An existing memory of the same project this one replaces; ids that do not exist are ignored. */
  supersedesId: number | null
}

export interface InsertedMemories {
  inserted: MemoryView[]
  /** Ids of memories now retired by the new ones. */
  superseded: number[]
}

/** Where the walk over selectable memories stands: the last row seen, in (created_at, id) descending order. */
export interface SelectionCursor {
  createdAt: string
  id: number
}

const categorySchema = z.enum(['global_rule', 'personal_fact'])

function toView(value: unknown): MemoryView {
  const row = toRow(value)
  return {
    id: integer(row, 'id'),
    category: categorySchema.parse(text(row, 'category')),
    content: text(row, 'content'),
    enabled: flag(row, 'enabled'),
    supersededBy: integerOrNull(row, 'superseded_by'),
    chatId: textOrNull(row, 'chat_id'),
    createdAt: text(row, 'created_at'),
    updatedAt: text(row, 'updated_at')
  }
}

function toItem(value: unknown): MemoryItem {
  const row = toRow(value)
  return {
    id: integer(row, 'id'),
    category: categorySchema.parse(text(row, 'category')),
    content: text(row, 'content'),
    tokens: integer(row, 'tokens'),
    chatId: textOrNull(row, 'chat_id'),
    createdAt: text(row, 'created_at')
  }
}

// "Selectable" = enabled, not superseded, not from the excluded chat. Every query below has exactly the
// partial index's WHERE clause so SQLite reads the index (memories_selectable / memories_smallest) only.
const NOT_FROM_CHAT = `(@excludeChatId IS NULL OR chat_id IS NOT @excludeChatId)`
const SELECTABLE = `project_id = @projectId AND category = @category AND enabled = 1 AND superseded_by IS NULL
  AND ${NOT_FROM_CHAT}`
const ITEM_COLUMNS = `id, category, content, tokens, chat_id, created_at`
/** Rows the walk reads in time order before switching to the token index (see nextFitting). */
const TIME_ORDER_WINDOW = 64

export class MemoriesRepo {
  constructor(private readonly context: StoreContext) {}

  /** Every memory of the project, retired ones included, newest first (the memory manager's list). */
  list(projectId: number): MemoryView[] {
    return this.context
      .read(() =>
        this.context
          .statement(`SELECT * FROM memories WHERE project_id = ? ORDER BY created_at DESC, id DESC`)
          .all(projectId)
      )
      .map(toView)
  }

  get(projectId: number, id: number): MemoryView {
    const row = this.context.read(() =>
      this.context.statement(`SELECT * FROM memories WHERE id = ? AND project_id = ?`).get(id, projectId)
    )
    if (row === undefined) throw new StoreNotFoundError('memory', id)
    return toView(row)
  }

  add(projectId: number, memory: NewMemory): MemoryView {
    return this.context.write(() => this.get(projectId, this.insert(projectId, memory)))
  }

  /** Inserts new memories and retires the ones they supersede, all or nothing. */
  addExtracted(projectId: number, memories: ExtractedMemory[]): InsertedMemories {
    return this.context.write(() => {
      const inserted: MemoryView[] = []
      const superseded: number[] = []
      for (const memory of memories) {
        const id = this.insert(projectId, memory)
        if (memory.supersedesId !== null) {
          const retired = this.context
            .statement(
              `UPDATE memories SET superseded_by = ?, updated_at = ?
               WHERE id = ? AND project_id = ? AND superseded_by IS NULL AND id != ?`
            )
            .run(id, this.context.now(), memory.supersedesId, projectId, id)
          if (retired.changes > 0) superseded.push(memory.supersedesId)
        }
        inserted.push(this.get(projectId, id))
      }
      return { inserted, superseded }
    })
  }

  edit(projectId: number, id: number, content: string): MemoryView {
    return this.context.write(() => {
      const result = this.context
        .statement(`UPDATE memories SET content = ?, tokens = ?, updated_at = ? WHERE id = ? AND project_id = ?`)
        .run(content, countTokens(content), this.context.now(), id, projectId)
      if (result.changes === 0) throw new StoreNotFoundError('memory', id)
      return this.get(projectId, id)
    })
  }

  setEnabled(projectId: number, id: number, enabled: boolean): MemoryView {
    return this.context.write(() => {
      const result = this.context
        .statement(`UPDATE memories SET enabled = ?, updated_at = ? WHERE id = ? AND project_id = ?`)
        .run(bit(enabled), this.context.now(), id, projectId)
      if (result.changes === 0) throw new StoreNotFoundError('memory', id)
      return this.get(projectId, id)
    })
  }

  delete(projectId: number, id: number): void {
    this.context.write(() => {
      const result = this.context.statement(`DELETE FROM memories WHERE id = ? AND project_id = ?`).run(id, projectId)
      if (result.changes === 0) throw new StoreNotFoundError('memory', id)
    })
  }

  /** Every selectable memory as prompt items (for callers that select in memory; see memory/select.ts). */
  selectable(projectId: number, excludeChatId: string | null): MemoryItem[] {
    return this.context
      .read(() =>
        this.context
          .statement(
            `SELECT ${ITEM_COLUMNS} FROM memories WHERE project_id = @projectId AND enabled = 1
               AND superseded_by IS NULL AND ${NOT_FROM_CHAT} ORDER BY created_at DESC, id DESC`
          )
          .all({ projectId, excludeChatId })
      )
      .map(toItem)
  }

  /** The newest `limit` selectable memories of the project, both categories (what extraction shows the model). */
  recentSelectable(projectId: number, limit: number): MemoryItem[] {
    return this.context
      .read(() =>
        this.context
          .statement(
            `SELECT ${ITEM_COLUMNS} FROM memories WHERE project_id = ? AND enabled = 1 AND superseded_by IS NULL
             ORDER BY created_at DESC, id DESC LIMIT ?`
          )
          .all(projectId, limit)
      )
      .map(toItem)
  }

  /**
   * The newest selectable memory after `cursor` in this category that costs at most `maxTokens`. First a
   * short look along the time-ordered index (cheap while most memories fit); if none of the next rows fits,
   * the token-ordered index, which then holds few candidates (cheap when few fit). Either way the walk
   * never reads a long run of memories that cannot fit.
   */
  nextFitting(
    projectId: number,
    category: MemoryCategory,
    excludeChatId: string | null,
    cursor: SelectionCursor | null,
    maxTokens: number
  ): MemoryItem | null {
    const params = {
      projectId,
      category,
      excludeChatId,
      maxTokens,
      createdAt: cursor?.createdAt ?? '\uffff',
      id: cursor?.id ?? Number.MAX_SAFE_INTEGER,
      window: TIME_ORDER_WINDOW
    }
    // Only indexed columns while searching; the content is read for the one row found.
    const id: unknown = this.context.read(
      () =>
        this.context
          .statement(
            `SELECT id FROM (
               SELECT id, tokens, created_at FROM memories INDEXED BY memories_selectable
               WHERE ${SELECTABLE} AND (created_at, id) < (@createdAt, @id)
               ORDER BY created_at DESC, id DESC LIMIT @window
             ) WHERE tokens <= @maxTokens ORDER BY created_at DESC, id DESC LIMIT 1`
          )
          .pluck()
          .get(params) ??
        this.context
          .statement(
            `SELECT id FROM memories INDEXED BY memories_smallest
             WHERE ${SELECTABLE} AND tokens <= @maxTokens AND (created_at, id) < (@createdAt, @id)
             ORDER BY created_at DESC, id DESC LIMIT 1`
          )
          .pluck()
          .get(params)
    )
    return typeof id === 'number' ? (this.items([id])[0] ?? null) : null
  }

  /** The smallest token count among selectable memories of the category, or null when there are none. */
  smallestTokens(projectId: number, category: MemoryCategory, excludeChatId: string | null): number | null {
    const value: unknown = this.context.read(() =>
      this.context
        .statement(`SELECT tokens FROM memories INDEXED BY memories_smallest WHERE ${SELECTABLE} ORDER BY tokens LIMIT 1`)
        .pluck()
        .get({ projectId, category, excludeChatId })
    )
    return typeof value === 'number' ? value : null
  }

  /** How many memories of the category are selectable (kept by triggers, see 0030-memory-counts). */
  countSelectable(projectId: number, category: MemoryCategory, excludeChatId: string | null): number {
    return this.context.read(() => {
      const total: unknown = this.context
        .statement(`SELECT selectable FROM memory_counts WHERE project_id = ? AND category = ?`)
        .pluck()
        .get(projectId, category)
      const fromChat: unknown =
        excludeChatId === null
          ? 0
          : this.context
              .statement(
                `SELECT count(*) FROM memories WHERE chat_id = ? AND project_id = ? AND category = ?
                   AND enabled = 1 AND superseded_by IS NULL`
              )
              .pluck()
              .get(excludeChatId, projectId, category)
      return (typeof total === 'number' ? total : 0) - (typeof fromChat === 'number' ? fromChat : 0)
    })
  }

  /** Id and tokens of the first `limit` selectable memories of the category, in selection order (index only). */
  firstSelectable(
    projectId: number,
    category: MemoryCategory,
    excludeChatId: string | null,
    limit: number
  ): { id: number; tokens: number }[] {
    return this.context
      .read(() =>
        this.context
          .statement(
            `SELECT id, tokens FROM memories INDEXED BY memories_selectable WHERE ${SELECTABLE}
             ORDER BY created_at DESC, id DESC LIMIT @limit`
          )
          .all({ projectId, category, excludeChatId, limit })
      )
      .map((value) => {
        const row = toRow(value)
        return { id: integer(row, 'id'), tokens: integer(row, 'tokens') }
      })
  }

  /** Memories by id as prompt items, in the order of `ids` (unknown ids are skipped). */
  items(ids: readonly number[]): MemoryItem[] {
    const statement = this.context.statement(`SELECT ${ITEM_COLUMNS} FROM memories WHERE id = ?`)
    return this.context.read(() =>
      ids.flatMap((id) => {
        const row = statement.get(id)
        return row === undefined ? [] : [toItem(row)]
      })
    )
  }

  private insert(projectId: number, memory: NewMemory): number {
    const now = this.context.now()
    const result = this.context
      .statement(
        `INSERT INTO memories (project_id, category, content, tokens, chat_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`
      )
      .run(projectId, memory.category, memory.content, countTokens(memory.content), memory.chatId ?? null, now, now)
    return Number(result.lastInsertRowid)
  }
}
