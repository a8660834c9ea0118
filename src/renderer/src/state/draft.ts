/** What the user is composing: the inspector previews exactly this. */
export interface Draft {
  text: string
  /** A very large paste, kept out of the text box (a browser text box with a megabyte in it is slow). */
  pasted: string | null
  skill: string | null
  /** `database.schema.table` names chosen with `@`. */
  tables: string[]
  attachments: string[]
}

export const EMPTY_DRAFT: Draft = { text: '', pasted: null, skill: null, tables: [], attachments: [] }

/** Pastes longer than this become a "pasted text" block instead of going into the text box. */
export const LARGE_PASTE_CHARS = 20_000

/** The message as sent: what was typed, then the large paste. */
export function messageTextOf(draft: Draft): string {
  return [draft.text.trim() ? draft.text : '', draft.pasted ?? ''].filter((part) => part !== '').join('\n\n')
}

export function isDraftEmpty(draft: Draft): boolean {
  return messageTextOf(draft).trim() === ''
}
