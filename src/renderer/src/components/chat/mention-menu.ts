// Which menu the caret is in: `/skill` at the start of a word lists skills, `@table` lists tables.

export interface Trigger {
  kind: 'skill' | 'table'
  query: string
  /** Where the trigger word starts and ends in the text. */
  start: number
  end: number
}

/** A trigger word is short; looking further back than this would only cost time on huge pastes. */
const MAX_TRIGGER_LENGTH = 200

export function findTrigger(text: string, caret: number): Trigger | null {
  let start = caret
  while (start > 0 && caret - start < MAX_TRIGGER_LENGTH && !/\s/.test(text[start - 1])) start--
  if (start > 0 && !/\s/.test(text[start - 1])) return null
  const word = text.slice(start, caret)
  if (word.length === 0) return null
  if (word[0] === '/') return { kind: 'skill', query: word.slice(1).toLowerCase(), start, end: caret }
  if (word[0] === '@') return { kind: 'table', query: word.slice(1).toLowerCase(), start, end: caret }
  return null
}

export interface MenuItem {
  value: string
  label: string
  detail: string
}
