import { createAgentTools } from '../agent/tools'
import { selectStoredMemories, type StoredSelectOptions } from '../memory/select'
import type { ProjectSnapshot } from '../project/types'
import type { FileMeta } from '../prompt/user/context-block'
import type { Store } from '../store'
import type { ChatDetail, ChatMessageView } from '../../shared/api'
import type { RequestMessage } from '../../shared/prompt'
import { historyMessages } from '../../shared/history'
import { forkedFrom } from './message-inputs'
import type { AssemblePromptInput } from './prompt-assembly'

// What a prompt is assembled from, gathered one way for the inspector's preview and for a run: the same
// memories, the same tools, the same history and earlier results, so the preview is the request a run sends.

export interface PromptInputsSource {
  store: Store
  projectId: number
  project: ProjectSnapshot
  /** The chat the question goes to; null for a chat not created yet. */
  chat: ChatDetail | null
  /** The chat's messages before the question: the history the model sees. */
  earlier: readonly ChatMessageView[]
  question: string
  files: FileMeta[]
  images: string[]
  testMode: boolean
  now: Date
  timezone: string
  channel: string | null
  forkSelection: string | null
  /** Tools the project's approved MCP servers offer, beside the built-in ones. */
  projectTools?: ReturnType<typeof createAgentTools>
  /** Memory budget and on/off; the project's settings when not given. */
  memory?: Pick<StoredSelectOptions, 'budgetTokens' | 'memoryEnabled'>
}

/** Everything assemblePrompt needs but the model, which each caller resolves its own way. */
export function promptInputs(source: PromptInputsSource): Omit<AssemblePromptInput, 'model'> {
  const { store, chat } = source
  return {
    project: source.project,
    question: source.question,
    files: source.files,
    images: source.images,
    results: forkedFrom(chat, (id) => store.chats.message(id)),
    memory: selectStoredMemories(store, source.projectId, source.memory),
    tools: createAgentTools({ testMode: source.testMode, projectTools: source.projectTools }),
    testMode: source.testMode,
    now: source.now,
    timezone: source.timezone,
    channel: source.channel,
    forkSelection: source.forkSelection,
    history: toHistory(source.earlier),
    archiveSource: `chat:${chat?.id ?? 'new'}`
  }
}

/** Earlier turns as the model saw them: what the user asked and what the assistant answered. */
export function toHistory(messages: readonly ChatMessageView[]): RequestMessage[] {
  return historyMessages(messages).map((message) => ({ role: message.role, content: message.text }))
}
