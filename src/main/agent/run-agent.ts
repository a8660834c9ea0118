import type { RunEvent, StopReason } from '../../shared/events'
import type { RequestMessage, RequestToolCall } from '../../shared/prompt'
import type { ModelEndpoint } from './chat-model'
import { defangControlTokens } from './defang'
import { textOf, toLangChainMessages } from './messages'
import { streamingModel } from './model-cache'
import { streamRound, type RoundResult } from './stream-round'
import { roundSignature, type ParsedToolCall } from './tool-calls'
import type { AgentTool, ToolContext } from './tools/create-tool'

// The agent loop: model → tools → model … until an answer without tool calls, a stop tool, the round limit
// or the loop guard. It knows nothing of prompt assembly or persistence: it gets the assembled messages and
// returns what happened, and streams RunEvents on the way.

export const DEFAULT_MAX_ROUNDS = 25
/** A round repeating the previous two rounds' calls exactly is a loop. */
const LOOP_GUARD_REPEATS = 3

export interface RunAgentOptions {
  endpoint: ModelEndpoint
  /** Already assembled: system, history, user. Not modified. */
  messages: readonly RequestMessage[]
  tools: readonly AgentTool[]
  toolContext: ToolContext
  signal: AbortSignal
  /** run-start, text/reasoning deltas, tool-start/tool-end, usage (running totals for the run), error, end. */
  onEvent: (event: RunEvent) => void
  runId: string
  chatId?: string
  maxRounds?: number
  /** No clarification: nobody is there to answer. */
  testMode?: boolean
  /** false starts in tool-less mode (tools described in the prompt, calls read from the reply's JSON). */
  modelSupportsTools?: boolean
  temperature?: number
  /** Output cap per round (max_tokens): the output the budget reserved. None: the server's own limit. */
  maxOutputTokens?: number
}

export interface RunToolCall {
  callId: string
  name: string
  args: Record<string, unknown>
  ok: boolean
  output: string
  data?: unknown
}

export interface RunOutcome {
  /** Everything the user saw as text, in order (the limit and loop-guard explanations included). */
  answer: string
  stopReason: StopReason
  /** Set when stopReason is 'error'. */
  error?: string
  toolCalls: RunToolCall[]
  /** Summed over the rounds; null when the server reported no usage (never 0/0 as if counted). */
  usage: { inputTokens: number; outputTokens: number } | null
  /** The messages this run added after the given ones, for persistence and the next turn's history. */
  messages: RequestMessage[]
  toolRounds: number
  /** True when the run fell back to tool-less mode. */
  toolless: boolean
  /** The model the server reported answering (its response's `model` field), null when it never said. */
  servedModel: string | null
}

export async function runAgent(options: RunAgentOptions): Promise<RunOutcome> {
  const { runId, signal, onEvent } = options
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS
  const tools = options.tools.filter((tool) => !(options.testMode && tool.stopsRun))
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const added: RequestMessage[] = []
  const toolCalls: RunToolCall[] = []
  const usage = { inputTokens: 0, outputTokens: 0 }
  let usageReported = false
  let servedModel: string | null = null
  const signatures: string[] = []
  let toolless = options.modelSupportsTools === false || tools.length === 0
  let triedToolless = toolless
  let answer = ''
  let roundHasText = false
  let toolRounds = 0
  let callCounter = 0

  const emitText = (text: string): void => {
    // Text from a new round starts a new paragraph, so the answer reads as the user saw it.
    if (!roundHasText && answer !== '' && !answer.endsWith('\n\n')) {
      const separator = answer.endsWith('\n') ? '\n' : '\n\n'
      answer += separator
      onEvent({ type: 'text-delta', runId, text: separator })
    }
    roundHasText = true
    answer += text
    onEvent({ type: 'text-delta', runId, text })
  }
  const finish = (stopReason: StopReason, error?: string): RunOutcome => {
    if (error) onEvent({ type: 'error', runId, message: error })
    onEvent({ type: 'end', runId, stopReason, answer })
    return { answer, stopReason, ...(error ? { error } : {}), toolCalls, usage: usageReported ? usage : null, messages: added, toolRounds, toolless, servedModel }
  }

  onEvent({ type: 'run-start', runId, chatId: options.chatId ?? runId, model: options.endpoint.model })

  // Bounded: every pass either returns or executes a tool round (at most maxRounds of them); the switch to
  // tool-less mode happens at most once.
  for (;;) {
    if (signal.aborted) return finish('cancelled')
    roundHasText = false
    const request = toolless ? withToollessInstructions(options.messages, tools) : options.messages
    const round: RoundResult = await streamRound({
      model: streamingModel(options.endpoint, { temperature: options.temperature, maxTokens: options.maxOutputTokens }, toolless ? [] : tools),
      endpoint: options.endpoint,
      messages: toLangChainMessages([...request, ...added]),
      knownTools: new Set(byName.keys()),
      signal,
      makeCallId: () => `call_${runId}_${++callCounter}`,
      onText: emitText,
      onReasoning: (text) => onEvent({ type: 'reasoning-delta', runId, text })
    })
    servedModel = round.servedModel ?? servedModel
    if (round.usage) {
      usageReported = true
      usage.inputTokens += round.usage.inputTokens
      usage.outputTokens += round.usage.outputTokens
      onEvent({ type: 'usage', runId, ...usage, round: round.usage, ...(round.servedModel ? { servedModel: round.servedModel } : {}) })
    }

    if (round.failure) {
      if (round.failure.kind === 'cancelled') return finish('cancelled')
      if (round.failure.kind === 'tools-unsupported' && !triedToolless && round.rawContent === '') {
        toolless = triedToolless = true
        emitText(`(${round.failure.message} Continuing in tool-less mode: tools are described in the prompt and called through JSON replies.)\n\n`)
        continue
      }
      if (round.text !== '') added.push({ role: 'assistant', content: round.text })
      return finish('error', round.failure.message)
    }

    if (round.finishReason === 'length') {
      // Cut at the output limit: the text stops mid-way and any tool call in it may be incomplete.
      added.push({ role: 'assistant', content: round.text })
      roundHasText = false // the note goes in a paragraph of its own
      emitText(cutAnswerMessage(options.maxOutputTokens))
      return finish('length')
    }
    if (round.toolCalls.length === 0) {
      added.push({ role: 'assistant', content: round.text })
      return finish('answer')
    }
    if (toolRounds >= maxRounds) {
      added.push({ role: 'assistant', content: round.text })
      emitText(roundLimitMessage(maxRounds, toolCalls))
      return finish('round-limit')
    }
    signatures.push(roundSignature(round.toolCalls))
    const recent = signatures.slice(-LOOP_GUARD_REPEATS)
    if (recent.length === LOOP_GUARD_REPEATS && recent.every((signature) => signature === recent[0])) {
      added.push({ role: 'assistant', content: round.text })
      emitText(loopGuardMessage(round.toolCalls, toolCalls))
      return finish('loop-guard')
    }

    const results = await Promise.all(round.toolCalls.map((call) => runToolCall(call, byName, options.toolContext, runId, onEvent)))
    toolCalls.push(...results)
    toolRounds++
    added.push(...roundMessages(round, results, toolless || round.callsFromContent))
    if (signal.aborted) return finish('cancelled')
    if (results.some((result) => result.ok && byName.get(result.name)?.stopsRun)) return finish('stop-tool')
  }
}

async function runToolCall(
  call: ParsedToolCall,
  byName: ReadonlyMap<string, AgentTool>,
  ctx: ToolContext,
  runId: string,
  onEvent: (event: RunEvent) => void
): Promise<RunToolCall> {
  const args = call.args ?? { raw_arguments: call.rawArgs }
  onEvent({ type: 'tool-start', runId, callId: call.callId, name: call.name, args })
  const tool = byName.get(call.name)
  let result: { ok: boolean; output: string; data?: unknown }
  if (!tool) {
    result = { ok: false, output: `Error: there is no tool named "${call.name}". Available tools: ${[...byName.keys()].join(', ')}.` }
  } else if (!call.args) {
    result = { ok: false, output: `Error: could not run ${call.name}: ${call.argsError ?? 'invalid arguments'}. Call it again with a JSON object matching its schema.` }
  } else {
    result = await tool.invoke(call.args, ctx)
  }
  onEvent({ type: 'tool-end', runId, callId: call.callId, name: call.name, ok: result.ok, output: result.output, ...(result.data !== undefined ? { data: result.data } : {}) })
  return { callId: call.callId, name: call.name, args, ...result }
}

/** The assistant turn and its results, as the next request carries them; results are data, their control tokens defanged. */
function roundMessages(round: RoundResult, results: RunToolCall[], asText: boolean): RequestMessage[] {
  if (asText) {
    // Without native tool support the exchange goes back as plain text the server's template can render.
    const report = results.map((result) => `Result of ${result.name} (${result.callId}):\n${defangControlTokens(result.output)}`).join('\n\n')
    return [
      { role: 'assistant', content: round.rawContent },
      { role: 'user', content: report }
    ]
  }
  const toolCallsSent: RequestToolCall[] = results.map((result) => ({ id: result.callId, name: result.name, args: result.args }))
  return [
    { role: 'assistant', content: round.text, toolCalls: toolCallsSent },
    ...results.map((result): RequestMessage => ({ role: 'tool', content: defangControlTokens(result.output), toolCallId: result.callId }))
  ]
}

function withToollessInstructions(messages: readonly RequestMessage[], tools: readonly AgentTool[]): RequestMessage[] {
  if (tools.length === 0) return [...messages]
  const catalogue = tools.map((tool) => `- ${tool.name}: ${tool.description} Arguments (JSON schema): ${JSON.stringify(tool.parameters)}`).join('\n')
  const note =
    '## Tools without native tool calling\nThis model server cannot take tool definitions. To call a tool, reply with ONLY a JSON object ' +
    '{"name": "<tool>", "arguments": {…}} (or an array of them) and nothing else; the results come back in the next message. ' +
    `Answer in plain text when you need no tool.\n${catalogue}`
  const first = messages[0]
  if (first?.role === 'system') return [{ ...first, content: `${textOf(first.content)}\n\n${note}` }, ...messages.slice(1)]
  return [{ role: 'system', content: note }, ...messages]
}

function summariseCalls(calls: readonly RunToolCall[]): string {
  if (calls.length === 0) return 'no tool calls'
  const counts = new Map<string, number>()
  for (const call of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1)
  const failed = calls.filter((call) => !call.ok).length
  return `${calls.length} tool call${calls.length === 1 ? '' : 's'} (${[...counts].map(([name, count]) => `${name} ×${count}`).join(', ')})${failed > 0 ? `, ${failed} failed` : ''}`
}

function cutAnswerMessage(maxOutputTokens: number | undefined): string {
  const limit = maxOutputTokens ? `of ${maxOutputTokens} tokens ` : ''
  return `(This answer was cut at the output limit ${limit}set for the model: it had more to write. Ask me to continue, or ask for a shorter answer.)`
}

function roundLimitMessage(maxRounds: number, calls: readonly RunToolCall[]): string {
  return `I stopped: this run reached the limit of ${maxRounds} tool rounds before finishing. What was done: ${summariseCalls(calls)}. Ask me to continue, or narrow the question.`
}

function loopGuardMessage(repeated: readonly ParsedToolCall[], calls: readonly RunToolCall[]): string {
  const what = repeated.map((call) => `${call.name} ${call.rawArgs || '{}'}`).join('; ')
  return `I stopped because I was about to repeat the same tool calls for the third time in a row (${what}) without getting closer to an answer. What was done: ${summariseCalls(calls)}. Try rephrasing the question or pointing me to the right table or file.`
}
