import type { BaseMessage } from '@langchain/core/messages'
import type { ChatOpenAI } from '@langchain/openai'
import type { ModelEndpoint } from './chat-model'
import { classifyModelError, type ModelFailure } from './model-errors'
import { ThinkSplitter } from './think-splitter'
import { mayBeToolCallJson, ToolCallAccumulator, toolCallsFromContent, type ParsedToolCall } from './tool-calls'

// One model round: stream the reply, hand text and reasoning out as they arrive, and collect tool calls.

export interface RoundTool {
  name: string
  description: string
  parameters: Record<string, unknown>
}

export interface RoundInput {
  model: ChatOpenAI
  endpoint: ModelEndpoint
  messages: BaseMessage[]
  /** Bound as native tools; empty in tool-less mode. */
  tools: RoundTool[]
  /** Names that count as tool calls when a model writes them as JSON in its content. */
  knownTools: ReadonlySet<string>
  signal: AbortSignal
  makeCallId: (position: number) => string
  onText: (text: string) => void
  onReasoning: (text: string) => void
}

export interface RoundResult {
  /** Visible text of the round (reasoning removed; JSON tool calls removed). */
  text: string
  /** Raw content as the model wrote it (kept for tool-less mode, where it goes back verbatim). */
  rawContent: string
  toolCalls: ParsedToolCall[]
  /** True when the tool calls were recovered from content rather than `tool_calls`. */
  callsFromContent: boolean
  usage: { inputTokens: number; outputTokens: number } | null
  failure: ModelFailure | null
}

export async function streamRound(input: RoundInput): Promise<RoundResult> {
  const splitter = new ThinkSplitter()
  const calls = new ToolCallAccumulator()
  let rawContent = ''
  let text = ''
  // Content that may be a tool call written as JSON is held back until the round ends.
  let held = ''
  let holding: boolean | null = null
  let usage: RoundResult['usage'] = null
  let failure: ModelFailure | null = null

  const showText = (piece: string): void => {
    if (holding === null && piece.trim() !== '') holding = input.knownTools.size > 0 && mayBeToolCallJson(piece)
    if (holding) held += piece
    else {
      text += piece
      input.onText(piece)
    }
  }
  const route = (pieces: ReturnType<ThinkSplitter['push']>): void => {
    for (const piece of pieces) piece.kind === 'reasoning' ? input.onReasoning(piece.text) : showText(piece.text)
  }

  try {
    const runnable = input.tools.length > 0 ? input.model.bindTools(input.tools.map(toOpenAiTool)) : input.model
    const stream = await runnable.stream(input.messages, { signal: input.signal })
    for await (const chunk of stream) {
      const reasoning = chunk.additional_kwargs.reasoning_content
      if (typeof reasoning === 'string' && reasoning !== '') input.onReasoning(reasoning)
      if (typeof chunk.content === 'string' && chunk.content !== '') {
        rawContent += chunk.content
        route(splitter.push(chunk.content))
      }
      for (const piece of chunk.tool_call_chunks ?? []) calls.add(piece)
      if (chunk.usage_metadata) usage = { inputTokens: chunk.usage_metadata.input_tokens, outputTokens: chunk.usage_metadata.output_tokens }
    }
  } catch (error) {
    failure = classifyModelError(error, input.endpoint.baseUrl, input.signal)
  }
  route(splitter.flush())

  let toolCalls = calls.finish(input.makeCallId)
  let callsFromContent = false
  if (held !== '') {
    const recovered = failure || toolCalls.length > 0 ? null : toolCallsFromContent(held, input.knownTools, input.makeCallId)
    if (recovered) {
      toolCalls = recovered
      callsFromContent = true
    } else {
      text += held
      input.onText(held)
    }
  }
  return { text, rawContent, toolCalls, callsFromContent, usage, failure }
}

function toOpenAiTool(tool: RoundTool): { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } } {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }
}
