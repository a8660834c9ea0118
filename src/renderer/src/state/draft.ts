/** What the user is composing: the inspector previews exactly this. */
export interface Draft {
  text: string
  skill: string | null
  /** `database.schema.table` names chosen with `@`. */
  tables: string[]
  attachments: string[]
}

export const EMPTY_DRAFT: Draft = { text: '', skill: null, tables: [], attachments: [] }

export function isDraftEmpty(draft: Draft): boolean {
  return draft.text.trim() === ''
}
