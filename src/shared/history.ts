import type { ChatMessageView } from './api'

// Which chat messages are the model's history: what the user asked and what the assistant answered. A
// question whose run failed before the model wrote anything (refused for length, server down) was never
// answered, so it is not history: it is neither sent again nor shown as archived.

export function historyMessages<T extends Pick<ChatMessageView, 'role' | 'text' | 'status'>>(messages: readonly T[]): T[] {
  return messages.filter((message, index) => {
    if (message.text.trim() === '' || message.status === 'streaming') return false
    const reply = messages[index + 1]
    return !(message.role === 'user' && reply?.role === 'assistant' && reply.status === 'failed' && reply.text.trim() === '')
  })
}
