// Shapes of an assembled prompt, shared by main (which builds them), the CLI (`prompt --json`) and the
// renderer's inspector (which shows them).

import type { McpToolView } from './trust'

export type OverrideMode = 'default' | 'replaced' | 'wrapped' | 'runtime'

/** A problem with one project file; the rest of the prompt is still built from what is good. */
export interface Diagnostic {
  file: string
  problem: string
}

/** One titled part of a rendered prompt, located by character range in the rendered text. */
export interface PromptSection {
  id: string
  title: string
  /** Name of the component that produced it. */
  component: string
  /** Project-relative files (or `db:table#id` rows) it came from. */
  sources: string[]
  start: number
  end: number
  tokens: number
}

export type MemoryCategory = 'global_rule' | 'personal_fact'

export interface MemoryItem {
  id: number
  category: MemoryCategory
  content: string
  tokens: number
  chatId: string | null
  createdAt: string
}

export interface DroppedMemory extends MemoryItem {
  reason: string
}

export interface BudgetPart {
  /** system | tools | history | user | output (reserved) */
  name: string
  tokens: number
}

export interface TrimRecord {
  /** Which part was trimmed: history | memory | skills | context */
  part: string
  /** What was removed, in words an analyst understands. */
  detail: string
  tokensSaved: number
}

export interface Budget {
  contextWindow: number
  reservedOutput: number
  used: number
  parts: BudgetPart[]
  trimmed: TrimRecord[]
  /** Tokens kept free because local tokenizers count differently from the estimator (not in `used`). */
  safetyMargin?: number
  /** Prompt tokens of the request counted by the model server itself (llama.cpp), when it can count. */
  serverCounted?: number
  /** Where contextWindow came from ("llama.cpp /props n_ctx", "settings", "default, as the server did not say"…). */
  contextSource?: string
  /** How many of the oldest history messages were archived to fit (the model no longer sees them). */
  archivedMessages?: number
  /**
   * Factor the local estimates were multiplied by to match the server's tokenizer (learned from what it
   * counted); absent when 1. Every part is an estimate at this scale; `serverCounted` is not.
   */
  tokenScale?: number
}

export interface TextPart {
  type: 'text'
  text: string
}
export interface ImagePart {
  type: 'image_url'
  image_url: { url: string }
}
export type ContentPart = TextPart | ImagePart

export interface RequestToolCall {
  id: string
  name: string
  args: Record<string, unknown>
}

/** One message of the request exactly as it leaves Glassbox. */
export interface RequestMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string | ContentPart[]
  /** Prompt-cache mark (only when the model supports prompt caching). */
  cache?: boolean
  toolCalls?: RequestToolCall[]
  toolCallId?: string
}

/** What `prompt --json` prints and the inspector shows. */
export interface PromptPreview {
  system: string
  user: string
  messages: RequestMessage[]
  sections: PromptSection[]
  memory: { included: MemoryItem[]; dropped: DroppedMemory[] }
  diagnostics: Diagnostic[]
  overrideMode: OverrideMode
  budget: Budget | null
  /** Tools the project's MCP servers add to the request: server, tool, schema and token cost of each. */
  mcpTools?: McpToolView[]
}
