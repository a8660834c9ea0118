// The context block of the user prompt: metadata only. File contents and full earlier results never go in;
// the model reads them on demand with tools (`read`, `read_agent_result`, `read_tool_result`).
// Key order in these objects is the order the model sees in the JSON, so builders create them in it.

export interface FileMeta {
  name: string
  fileId: string
  /** MIME type, detected from the content first, then from the name. */
  type: string
  /** A short description (size, lines, first line or columns) — never the content. */
  summary: string
  variableId?: string
  variableName?: string
}

export interface ToolCallMeta {
  callId: string
  toolName: string
  status: string
  error?: string
}

/** An earlier answer the user references (a pinned result, a forked chat). */
export interface ResultMeta {
  resultId: string
  title: string
  status: string
  /** Extracted automatically (see summary.ts): may be cut short, so the prompt calls it unreliable. */
  summary: string
  /** Tokens of the full content, so the model can judge whether reading it is worth it. */
  contentTokens: number
  createdAt: string
  toolCallsMeta: ToolCallMeta[]
  outputFiles: FileMeta[]
}

/** Where archived content went (e.g. older chat history moved out to fit the window). Never trimmed. */
export interface ArchivedRef {
  fileId: string
  type: string
  source: string
  summary: string
  archivedAt: string
  tokensSaved: number
  itemCount?: number
}

export interface ContextBlock {
  files: FileMeta[]
  resultsMeta?: ResultMeta[]
  totalTokens?: number
  archivedRefs?: ArchivedRef[]
}

/**
 * True when the block carries anything the user prompt template should show: files or results (as in
 * Refly) or, beyond Refly, archived history — otherwise the model could never learn where it went.
 */
export function hasContext(context: ContextBlock | null | undefined): context is ContextBlock {
  if (!context) return false
  return context.files.length > 0 || (context.resultsMeta?.length ?? 0) > 0 || (context.archivedRefs?.length ?? 0) > 0
}
