import type { ChatMessageView, ChatVersionView } from '../../../shared/api'

// Which version of each question the chat shows. The live chat is the newest version of every question;
// choosing an earlier version of a question shows that version and what followed it then, instead of the
// live messages from that question on.

export interface VersionInfo {
  turnId: string
  /** 0-based; `count - 1` is the live version. */
  index: number
  count: number
}

/** Where an inspected run's answer sits, for the inspector to say what it shows. */
export interface RunPlace {
  chatId: string
  chatTitle: string
  /** Set when the question has several versions. */
  version?: { index: number; count: number }
}

export interface ShownMessage {
  message: ChatMessageView
  /** Set on a question that has several versions, and on its answer. */
  version?: VersionInfo
  /** Part of an earlier version: read-only (no regenerate, no edit). */
  archived: boolean
}

/** `chosen`: turn id → version index the user picked; absent means the live one. */
export function showVersions(messages: ChatMessageView[], versions: ChatVersionView[] | undefined, chosen: Record<string, number>): ShownMessage[] {
  const byTurn = new Map<string, ChatVersionView[]>()
  for (const version of versions ?? []) byTurn.set(version.turnId, [...(byTurn.get(version.turnId) ?? []), version])
  const shown: ShownMessage[] = []
  let current: VersionInfo | undefined
  for (const message of messages) {
    const earlier = message.role === 'user' && message.turnId ? byTurn.get(message.turnId) : undefined
    if (message.role === 'user') current = undefined
    if (earlier && message.turnId) {
      const count = earlier.length + 1
      const index = Math.min(Math.max(0, chosen[message.turnId] ?? count - 1), count - 1)
      current = { turnId: message.turnId, index, count }
      if (index < count - 1) {
        // An earlier version: its question, its answer and what followed it then.
        let first = true
        for (const old of earlier[index].messages) {
          if (old.role === 'user' && !first) current = undefined
          shown.push({ message: old, archived: true, ...(current ? { version: current } : {}) })
          first = false
        }
        return shown
      }
    }
    shown.push({ message, archived: false, ...(current ? { version: current } : {}) })
  }
  return shown
}

/**
 * The inspector follows the chat: when another version of the inspected answer's question is shown (‹ ›, a
 * regenerated answer), this is the run of the answer now shown for that question; null when nothing changes.
 */
export function runShownInstead(shown: readonly ShownMessage[], chat: { messages: ChatMessageView[]; versions?: ChatVersionView[] }, runId: string): string | null {
  const lists = [chat.messages, ...(chat.versions ?? []).map((version) => version.messages)]
  let turnId: string | undefined
  for (const list of lists) {
    const index = list.findIndex((message) => message.role === 'assistant' && message.runId === runId)
    if (index === -1) continue
    for (let before = index - 1; before >= 0 && turnId === undefined; before--) if (list[before].role === 'user') turnId = list[before].turnId ?? ''
    break
  }
  if (!turnId) return null
  const question = shown.findIndex((item) => item.message.role === 'user' && item.message.turnId === turnId)
  if (question === -1) return null
  const answer = shown[question + 1]?.message
  return answer?.role === 'assistant' && answer.runId && answer.runId !== runId ? answer.runId : null
}
