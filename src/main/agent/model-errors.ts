import { isStaleConnection } from './model-fetch'

// Turns what a local model server (or the connection to it) did wrong into one sentence an analyst can act on.

export type ModelFailureKind =
  | 'tools-unsupported'
  | 'context-length'
  | 'unreachable'
  | 'disconnected'
  | 'malformed'
  | 'empty-response'
  | 'server-error'
  | 'cancelled'

export interface ModelFailure {
  kind: ModelFailureKind
  message: string
}

const TOOLS_UNSUPPORTED = /does not support tools|tools? (?:are|is) not supported|not support(?:ed)? (?:for )?tool|requires --jinja|tool[_ ]choice.*not supported/i
const CONTEXT_LENGTH = /context length|context size|context window|context_length_exceeded|maximum context|exceeds? the available context|too many tokens|context overflow/i

export function classifyModelError(error: unknown, baseUrl: string, signal?: AbortSignal): ModelFailure {
  const text = describe(error)
  if (signal?.aborted || isAbort(error)) return { kind: 'cancelled', message: 'Stopped by the user.' }
  const status = statusOf(error)
  if (TOOLS_UNSUPPORTED.test(text)) {
    return { kind: 'tools-unsupported', message: `The model server says this model does not support tools (${oneLine(text)}).` }
  }
  if (CONTEXT_LENGTH.test(text) || nameOf(error) === 'ContextOverflowError') {
    return {
      kind: 'context-length',
      message: `The request is longer than the model's context window, so the server refused it (${oneLine(text)}). Start a new chat, shorten the question, or load the model with a larger context window.`
    }
  }
  if (status === undefined && isStaleConnection(error) && /Connection error|fetch failed/i.test(text)) {
    // The server took the connection and closed it before answering, twice (model-fetch retries once):
    // it is running, so do not send the user off to start it.
    return {
      kind: 'disconnected',
      message: `The model server at ${baseUrl} closed the connection before answering, also when asked again on a new connection. Try again; if it keeps happening, restart the server. (${oneLine(text)})`
    }
  }
  if (/ECONNREFUSED|Connection error|fetch failed|ENOTFOUND|EHOSTUNREACH|ECONNRESET.*connect/i.test(text) && status === undefined) {
    return { kind: 'unreachable', message: `Could not reach the model server at ${baseUrl}. Is it running? (${oneLine(text)})` }
  }
  if (/terminated|other side closed|socket hang up|ECONNRESET|premature close|aborted/i.test(text) && status === undefined) {
    return { kind: 'disconnected', message: `The connection to the model server at ${baseUrl} was lost mid-answer; what arrived before is kept.` }
  }
  if (nameOf(error) === 'SyntaxError' || /JSON/i.test(text)) {
    return { kind: 'malformed', message: `The model server sent a response Glassbox could not read (${oneLine(text)}); what arrived before is kept.` }
  }
  return {
    kind: 'server-error',
    message: `The model server failed${status ? ` (HTTP ${status})` : ''}: ${oneLine(text)}`
  }
}

/**
 * HTTP 200 and a stream with no event at all: no text, no tool call, no finish reason. llama-cpp-python's
 * server answers so when the request is longer than its context window.
 */
export function emptyStreamFailure(baseUrl: string): ModelFailure {
  return {
    kind: 'empty-response',
    message:
      `The model server at ${baseUrl} accepted the request but sent back nothing (an empty stream, no reason given). ` +
      'Servers do this when the request is longer than the context window they were started with: set the window the server really uses in Settings, start a new chat, or shorten the question.'
  }
}

/** Message plus the chain of causes (fetch errors hide the useful part, e.g. ECONNREFUSED, in `cause`). */
export function describe(error: unknown): string {
  const parts: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof Error) {
      parts.push(current.message)
      if ('code' in current && typeof current.code === 'string') parts.push(current.code)
      current = current.cause
    } else {
      parts.push(String(current))
      break
    }
  }
  return parts.filter((part) => part !== '').join(': ')
}

function statusOf(error: unknown): number | undefined {
  return error instanceof Error && 'status' in error && typeof error.status === 'number' ? error.status : undefined
}

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : ''
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || /aborted by user|request was aborted/i.test(error.message))
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}
