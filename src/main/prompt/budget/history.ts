import type { RequestMessage } from '../../../shared/prompt'
import type { ArchivedRef } from '../user/context-block'

// History is trimmed by whole turns (a user message and everything up to the next one), so an assistant
// tool call is never separated from its tool results and the kept history still starts with the user.

/** [start, end) index ranges of the turns in `history`, oldest first. */
export function splitIntoTurns(history: readonly RequestMessage[]): Array<[number, number]> {
  const turns: Array<[number, number]> = []
  let start = 0
  for (let i = 1; i < history.length; i++) {
    if (history[i].role === 'user') {
      turns.push([start, i])
      start = i
    }
  }
  if (history.length > 0) turns.push([start, history.length])
  return turns
}

export interface ArchiveTarget {
  /** Where the archived messages are kept, e.g. `chat:42`. */
  source: string
  /** When the trim happens (ISO 8601); injected so results are reproducible. */
  now: string
  /** The id a tool reads the archived messages by; defaults to `<source>#archived-history`. */
  fileId?: string
}

const QUOTE_CHARS = 80

export function archivedHistoryRef(
  archived: readonly RequestMessage[],
  turns: number,
  tokensSaved: number,
  target: ArchiveTarget
): ArchivedRef {
  const questions = archived.filter((message) => message.role === 'user').map((message) => textOf(message))
  let quotes = ''
  if (questions.length === 1) quotes = ` Question: "${clip(questions[0])}".`
  if (questions.length > 1) quotes = ` First question: "${clip(questions[0])}"; last: "${clip(questions[questions.length - 1])}".`
  const what = `The ${archived.length} oldest messages of this chat (${turns} ${turns === 1 ? 'turn' : 'turns'})`
  return {
    fileId: target.fileId ?? `${target.source}#archived-history`,
    type: 'history',
    source: target.source,
    summary: `${what}, moved out to fit the context window.${quotes}`,
    archivedAt: target.now,
    tokensSaved,
    itemCount: archived.length
  }
}

function textOf(message: RequestMessage): string {
  if (typeof message.content === 'string') return message.content
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ')
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= QUOTE_CHARS ? flat : flat.slice(0, QUOTE_CHARS) + '…'
}
