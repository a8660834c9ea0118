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
