import type { BaseMessage } from '@langchain/core/messages'
import type { ModelEndpoint } from './chat-model'
import type { StreamingModel } from './model-cache'
import { classifyModelError, emptyStreamFailure, type ModelFailure } from './model-errors'
import { ThinkSplitter } from './think-splitter'
import { mayBeToolCallJson, ToolCallAccumulator, toolCallsFromContent, type ParsedToolCall } from './tool-calls'

// One model round: stream the reply, hand text and reasoning out as they arrive, and collect tool calls.

export interface RoundInput {
  /** The chat model, with the native tools bound unless in tool-less mode. */
  model: StreamingModel
  endpoint: ModelEndpoint
  messages: BaseMessage[]
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
  /** null when the server did not report usage (llama-cpp-python does not). */
  usage: { inputTokens: number; outputTokens: number } | null
  /** The server's finish_reason ('stop', 'tool_calls', 'length', …), null when it sent none. */
  finishReason: string | null
  /** The `model` the server says answered (llama.cpp answers whatever name it is asked for); null when unsaid. */
  servedModel: string | null
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
  let finishReason: string | null = null
  let servedModel: string | null = null
  let chunks = 0

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

  // A signal of our own per round: the client libraries leave listeners on the signal they get, and the
  // caller's signal lives for the whole run (or longer).
  const round = new AbortController()
  const forwardAbort = (): void => round.abort(input.signal.reason)
  if (input.signal.aborted) round.abort(input.signal.reason)
  else input.signal.addEventListener('abort', forwardAbort, { once: true })
  try {
    const stream = await input.model.stream(input.messages, { signal: round.signal })
    for await (const chunk of stream) {
      chunks++
      const finish = chunk.response_metadata?.finish_reason
      if (typeof finish === 'string' && finish !== '') finishReason = finish
      const answeredBy = chunk.response_metadata?.model_name
      if (typeof answeredBy === 'string' && answeredBy !== '') servedModel = answeredBy
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
  } finally {
    input.signal.removeEventListener('abort', forwardAbort)
  }
  if (!failure && input.signal.aborted) failure = classifyModelError(input.signal.reason, input.endpoint.baseUrl, input.signal)
  else if (!failure && chunks === 0) failure = emptyStreamFailure(input.endpoint.baseUrl)
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
  return { text, rawContent, toolCalls, callsFromContent, usage, finishReason, servedModel, failure }
}
