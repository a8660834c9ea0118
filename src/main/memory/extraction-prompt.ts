import type { MemoryCategory } from '../../shared/prompt'
import { cutMiddle } from './normalise'

// What the extraction model reads. Written for small local models: short, concrete, with the exact JSON
// shape at the end, and "nothing" made the expected, easy answer.

export const CONVERSATION_MESSAGES = 17
export const MESSAGE_CHARS = 1250
export const LAST_USER_MESSAGE_CHARS = 2000

export const EXTRACTION_INSTRUCTIONS = `You keep a short memory about the user of a data-analysis assistant. Read the saved memories and the latest conversation, then report only new, lasting information that will still matter in future conversations.

Two kinds of memory:
- user_instructions: standing orders for how the assistant must work from now on. Record one only when the user makes it lasting with words such as "always", "never", "from now on", "every time" or "by default". A request about the current answer ("show this in EUR") is not a standing order.
- user_profile: stable facts the user states about themselves: role, team, responsibilities, the data or markets they own, how they like results presented. Facts need no special wording, but the user must say them; never guess.

Do not record: one-off requests, questions about the data, greetings, thanks or small talk, anything uncertain, hypothetical or joking, anything only the assistant said, anything already saved with the same meaning.

Most conversations contain nothing worth saving. Then answer {"user_instructions": null, "user_profile": null}.

When a new item updates or contradicts a saved memory, set "supersedes_id" to that memory's id; otherwise null. Write each item as one short, self-contained sentence ("Always report revenue in EUR." / "The user leads the growth team.").

Answer with one JSON object and nothing else:
{"user_instructions": [{"content": "…", "supersedes_id": null}] or null, "user_profile": [{"content": "…", "supersedes_id": null}] or null}`

export interface ConversationMessage {
  role: 'user' | 'assistant'
  text: string
}

export interface ShownMemory {
  id: number
  category: MemoryCategory
  content: string
}

const CATEGORY_LABEL: Record<MemoryCategory, string> = {
  global_rule: 'instruction',
  personal_fact: 'profile'
}

/** The user message: saved memories with their ids, then the conversation, long messages cut in the middle. */
export function buildExtractionInput(conversation: readonly ConversationMessage[], saved: readonly ShownMemory[]): string {
  const recent = conversation.slice(-CONVERSATION_MESSAGES)
  const lastUser = recent.map((message) => message.role).lastIndexOf('user')
  const memories = saved.length
    ? saved.map((memory) => `- [id ${memory.id}] (${CATEGORY_LABEL[memory.category]}) ${memory.content}`).join('\n')
    : '(none)'
  const messages = recent
    .map((message, index) => {
      const limit = index === lastUser ? LAST_USER_MESSAGE_CHARS : MESSAGE_CHARS
      return `${message.role === 'user' ? 'User' : 'Assistant'}: ${cutMiddle(message.text.trim(), limit)}`
    })
    .join('\n\n')
  return `## Saved memories\n${memories}\n\n## Latest conversation\n${messages}`
}
