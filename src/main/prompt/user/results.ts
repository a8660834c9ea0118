import { countTokens } from '../tokens'
import type { ArchivedRef, ContextBlock, FileMeta, ResultMeta, ToolCallMeta } from './context-block'
import { extractSummary, SUMMARY_LIMIT_TOKENS } from './summary'

// Earlier results (pinned answers, forked chats) become ResultMeta: an extracted summary and the size of the
// full content, which the model fetches with `read_agent_result` when the summary is not enough.

export interface EarlierResult {
  resultId: string
  title: string
  status: string
  /** The full answer text. Only its summary and token count reach the prompt. */
  content: string
  createdAt: string
  toolCalls?: ToolCallMeta[]
  outputFiles?: FileMeta[]
}

export const EMPTY_RESULT_SUMMARY = 'This result has no text content.'

export function describeResult(
  result: EarlierResult,
  count: (text: string) => number = countTokens
): ResultMeta {
  const summary = extractSummary(result.content, SUMMARY_LIMIT_TOKENS, count)
  return {
    resultId: result.resultId,
    title: result.title,
    status: result.status,
    summary: summary === '' ? EMPTY_RESULT_SUMMARY : summary,
    contentTokens: count(result.content),
    createdAt: result.createdAt,
    toolCallsMeta: (result.toolCalls ?? []).map((call) => ({ ...call })),
    outputFiles: (result.outputFiles ?? []).map((file) => ({ ...file }))
  }
}

export interface ContextBlockInput {
  files?: FileMeta[]
  results?: ResultMeta[]
  totalTokens?: number
  archivedRefs?: ArchivedRef[]
}

/** A context block with only the keys that have something in them (the JSON the model sees stays lean). */
export function buildContextBlock(input: ContextBlockInput): ContextBlock {
  const context: ContextBlock = { files: [...(input.files ?? [])] }
  if (input.results && input.results.length > 0) context.resultsMeta = [...input.results]
  if (input.totalTokens !== undefined) context.totalTokens = input.totalTokens
  if (input.archivedRefs && input.archivedRefs.length > 0) context.archivedRefs = [...input.archivedRefs]
  return context
}
