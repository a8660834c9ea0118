import type { ChatMessageView, ToolCallView } from '../../../shared/api'
import type { RunEvent } from '../../../shared/events'

// Applies streamed run events to a chat's messages without changing the inputs: only the streaming
// assistant message is copied; the others keep their identity so memoised rows do not re-render.

function applyOne(message: ChatMessageView, event: RunEvent): ChatMessageView {
  switch (event.type) {
    case 'text-delta':
      return { ...message, text: message.text + event.text }
    case 'reasoning-delta':
      return { ...message, reasoning: (message.reasoning ?? '') + event.text }
    case 'tool-start': {
      const call: ToolCallView = { callId: event.callId, name: event.name, args: event.args, ok: null, output: '' }
      return { ...message, toolCalls: [...(message.toolCalls ?? []), call] }
    }
    case 'tool-end': {
      const calls = message.toolCalls ?? []
      const known = calls.some((call) => call.callId === event.callId)
      const ended = { callId: event.callId, name: event.name, ok: event.ok, output: event.output, data: event.data }
      return {
        ...message,
        toolCalls: known ? calls.map((call) => (call.callId === event.callId ? { ...call, ...ended } : call)) : [...calls, { ...ended, args: {} }]
      }
    }
    case 'end':
      return { ...message, status: event.stopReason === 'cancelled' ? 'cancelled' : event.stopReason === 'error' ? 'failed' : 'done' }
    case 'error':
      return { ...message, status: 'failed', error: event.message }
    default:
      return message
  }
}

/** The assistant message a run writes into, created on `run-start` (or the first event seen). */
export function streamingMessage(runId: string, createdAt: string): ChatMessageView {
  return { id: `live-${runId}`, role: 'assistant', text: '', runId, toolCalls: [], createdAt, status: 'streaming' }
}

export function applyRunEvents(messages: ChatMessageView[], events: RunEvent[]): ChatMessageView[] {
  let next = messages
  for (const event of events) {
    if (event.type === 'usage') continue
    let index = -1
    for (let at = next.length - 1; at >= 0 && at >= next.length - 20; at--) {
      if (next[at].runId === event.runId) {
        index = at
        break
      }
    }
    if (index < 0) {
      next = [...next, streamingMessage(event.runId, new Date().toISOString())]
      index = next.length - 1
    }
    const updated = applyOne(next[index], event)
    if (updated !== next[index]) {
      if (next === messages) next = [...messages]
      next[index] = updated
    }
  }
  return next
}

/**
 * A chat read from the store, reconciled with what live events already show. Events are fresher than a read
 * that was taken mid-run: an answer the read still has as streaming keeps the text, calls and status the events
 * gave it (under the stored id), and when the read predates a run that is streaming here, what is shown stays.
 */
export function mergeChatRead(shown: ChatMessageView[], read: ChatMessageView[]): ChatMessageView[] {
  const streamedByRun = new Map(shown.filter((message) => message.role === 'assistant' && message.runId).map((message) => [message.runId, message]))
  const readRuns = new Set(read.map((message) => message.runId).filter(Boolean))
  const unknownLiveRun = shown.some((message) => message.status === 'streaming' && message.runId && !readRuns.has(message.runId))
  if (unknownLiveRun && !read.some((message) => message.status === 'streaming')) return shown
  return read.map((message) => {
    const streamed = message.status === 'streaming' && message.runId ? streamedByRun.get(message.runId) : undefined
    return streamed ? { ...streamed, id: message.id } : message
  })
}
