// How chats are named, the same in the store, the services and the UI.

/** The title of a chat nobody has named yet; its first question renames it. */
export const DEFAULT_CHAT_TITLE = 'New chat'

/** Longest title made from a text, the ellipsis included. */
export const TITLE_CHARS = 60

/** A text on one line, cut to TITLE_CHARS characters with an ellipsis when longer. */
export function titleFrom(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > TITLE_CHARS ? flat.slice(0, TITLE_CHARS - 1) + '…' : flat
}
