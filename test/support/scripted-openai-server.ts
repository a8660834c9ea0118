import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

// A deterministic OpenAI-compatible model server on loopback for tests and benches: real HTTP, real SSE,
// real tool-call chunks, and every quirk of SPEC §6 on demand. Each chat request consumes one scripted turn.

export interface ScriptedToolCall {
  /** Defaults to `call_<turn>_<position>`. */
  id?: string
  name: string
  /** A string is sent verbatim (use it for invalid JSON); an object is JSON-encoded. */
  args: string | Record<string, unknown>
}

export type ScriptedFault =
  /** 400 "does not support tools" when the request carries tools (like Ollama for a tool-less model). */
  | 'tools-unsupported'
  /** Streams `text` then destroys the socket without `[DONE]`. */
  | 'disconnect'
  /** Streams `text` then a chunk that is not JSON. */
  | 'malformed-chunk'
  /** HTTP 500 with an error body. */
  | 'http-500'
  /** 400 context-length exceeded, as vLLM/llama.cpp report it. */
  | 'context-length'
  /** Sends headers, then nothing until the client goes away (or `close()`, or 30 s). */
  | 'hang'
  /** HTTP 200 event stream with zero events (llama-cpp-python when the request exceeds its window). */
  | 'empty-stream'
  /** 404 "model not found", as Ollama answers for a model it does not have. */
  | 'model-not-found'

export interface Turn {
  /** Assistant text, streamed in chunks of `chunkSize` characters. */
  text?: string
  /** Streamed as `reasoning_content` deltas before the text. */
  reasoning?: string
  /** Streamed inside `<think>…</think>` at the start of the content. */
  think?: string
  toolCalls?: ScriptedToolCall[]
  /** Quirk: tool-call deltas carry no `index` field. */
  toolCallsWithoutIndex?: boolean
  /** Quirk: the tool calls are written as JSON in `content` instead of `tool_calls`. */
  toolCallJsonInContent?: boolean
  /** `false` sends no usage chunk; default: prompt_tokens 100, completion_tokens 10. */
  usage?: { prompt_tokens: number; completion_tokens: number } | false
  chunkSize?: number
  /** Delay before the first token (slow model load). */
  firstTokenDelayMs?: number
  /** Delay between chunks. */
  chunkDelayMs?: number
  fault?: ScriptedFault
  /** finish_reason of the last chunk; default 'tool_calls' with tool calls, else 'stop' ('length': cut). */
  finishReason?: string
}

export interface RecordedRequest {
  index: number
  method: string
  path: string
  headers: IncomingHttpHeaders
  /** Parsed JSON body, or null when there was none / it was not JSON. */
  body: unknown
  /** The body exactly as received (UTF-8), for byte-for-byte comparisons. */
  rawBody: string
}

export type Script = Turn[] | ((request: RecordedRequest, chatIndex: number) => Turn)

// Readers for scripts that choose their turn from what the client sent.

/** A recorded request's JSON body as a record ({} when it has none). */
export function bodyOf(request: RecordedRequest): Record<string, unknown> {
  return typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? Object.fromEntries(Object.entries(request.body)) : {}
}

export interface SentMessage {
  role: string
  /** A string content as it was sent; anything else (content parts) as JSON. */
  content: string
}

/** The chat messages a request sent, in order. */
export function sentMessages(request: RecordedRequest): SentMessage[] {
  const messages = bodyOf(request).messages
  if (!Array.isArray(messages)) return []
  return messages.map((message: unknown) => {
    const record = typeof message === 'object' && message !== null ? Object.fromEntries(Object.entries(message)) : {}
    return { role: String(record.role ?? ''), content: typeof record.content === 'string' ? record.content : JSON.stringify(record.content ?? '') }
  })
}

/** An agent round (tools offered), not a memory extraction (which asks for a response_format). */
export function isAgentRequest(request: RecordedRequest): boolean {
  const body = bodyOf(request)
  return Array.isArray(body.tools) && !('response_format' in body)
}

/** What a scripted model decides on: the newest question, the tool results sent after it, and the system prompt. */
export function latestTurn(request: RecordedRequest): { question: string; toolResults: string[]; system: string } {
  const messages = sentMessages(request)
  const lastUser = messages.map((message) => message.role).lastIndexOf('user')
  return {
    question: messages[lastUser]?.content ?? '',
    toolResults: messages.slice(lastUser + 1).flatMap((message) => (message.role === 'tool' ? [message.content] : [])),
    system: messages.find((message) => message.role === 'system')?.content ?? ''
  }
}

export interface ScriptedServerOptions {
  script?: Script
  /** GET /v1/models `data`; default `[{ id: 'scripted-model' }]`. Extra fields (max_model_len…) pass through. */
  models?: Array<{ id: string } & Record<string, unknown>>
  /** POST /api/show response (Ollama); absent → 404. */
  ollamaShow?: Record<string, unknown>
  /** GET /props response (llama.cpp); absent → 404. */
  llamaProps?: Record<string, unknown>
  /** GET /api/v0/models response (LM Studio); absent → 404. */
  lmStudioModels?: Record<string, unknown>
  /** Time a 'hang' turn waits at most. */
  hangLimitMs?: number
  /**
   * Offers llama.cpp's POST /apply-template (the messages' and tools' JSON as the "prompt") and POST
   * /tokenize (this many tokens for the content); absent → 404, like servers that cannot count.
   */
  tokenizer?: (text: string) => number
}

export interface ScriptedServer {
  /** http://127.0.0.1:PORT/v1 */
  url: string
  /** http://127.0.0.1:PORT */
  origin: string
  port: number
  requests: RecordedRequest[]
  /** Only the POST /v1/chat/completions requests, in order. */
  chatRequests: () => RecordedRequest[]
  /** TCP connections accepted so far. */
  connectionCount: () => number
  /** Chat requests whose client went away before the response finished. */
  clientAborts: () => number
  /** Resolves when a client drops a chat request before its response finished. */
  waitForClientAbort: (timeoutMs?: number) => Promise<void>
  close: () => Promise<void>
}

const DEFAULT_USAGE = { prompt_tokens: 100, completion_tokens: 10 }
const MODEL = 'scripted-model'

export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = []
  const sockets = new Set<Socket>()
  const abortWaiters: Array<() => void> = []
  const timers = new Set<NodeJS.Timeout>()
  let connections = 0
  let aborts = 0
  let chatIndex = 0

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (ms <= 0) return resolve()
      const timer = setTimeout(() => {
        timers.delete(timer)
        resolve()
      }, ms)
      timers.add(timer)
    })

  const nextTurn = (request: RecordedRequest): Turn => {
    const script = options.script ?? []
    const index = chatIndex++
    if (typeof script === 'function') return script(request, index)
    return script[index] ?? { fault: 'http-500', text: `scripted server: no turn left for request ${index + 1}` }
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy())
  })
  server.on('connection', (socket) => {
    connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const path = (req.url ?? '/').split('?')[0]
    const recorded: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body: parseJson(raw),
      rawBody: raw
    }
    requests.push(recorded)

    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: (options.models ?? [{ id: MODEL }]).map((m) => ({ object: 'model', owned_by: 'scripted', ...m })) })
    }
    if (req.method === 'POST' && path === '/api/show' && options.ollamaShow) return sendJson(res, 200, options.ollamaShow)
    if (req.method === 'GET' && path === '/props' && options.llamaProps) return sendJson(res, 200, options.llamaProps)
    if (req.method === 'GET' && path === '/api/v0/models' && options.lmStudioModels) return sendJson(res, 200, options.lmStudioModels)
    if (req.method === 'POST' && path === '/apply-template' && options.tokenizer && isRecord(recorded.body)) {
      return sendJson(res, 200, { prompt: JSON.stringify([recorded.body.messages, recorded.body.tools ?? []]) })
    }
    if (req.method === 'POST' && path === '/tokenize' && options.tokenizer && isRecord(recorded.body) && typeof recorded.body.content === 'string') {
      return sendJson(res, 200, { tokens: Array.from({ length: options.tokenizer(recorded.body.content) }, (_, index) => index) })
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJson(res, 404, { error: { message: `scripted server: no route ${req.method} ${path}` } })
    }

    const turn = nextTurn(recorded)
    let finished = false
    res.on('finish', () => (finished = true))
    res.on('close', () => {
      if (finished) return
      aborts++
      abortWaiters.splice(0).forEach((notify) => notify())
    })
    const body = isRecord(recorded.body) ? recorded.body : {}
    await wait(turn.firstTokenDelayMs ?? 0)
    if (res.destroyed) return

    if (turn.fault === 'http-500') return sendJson(res, 500, { error: { message: turn.text ?? 'internal server error', type: 'server_error' } })
    if (turn.fault === 'context-length') {
      return sendJson(res, 400, {
        error: {
          message: "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens. Please reduce the length of the messages.",
          type: 'invalid_request_error',
          code: 'context_length_exceeded'
        }
      })
    }
    if (turn.fault === 'model-not-found') {
      const requested = typeof body.model === 'string' ? body.model : 'unknown'
      return sendJson(res, 404, { error: { message: `model "${requested}" not found, try pulling it first`, type: 'not_found_error' } })
    }
    if (turn.fault === 'tools-unsupported' && Array.isArray(body.tools) && body.tools.length > 0) {
      return sendJson(res, 400, { error: { message: `registry.ollama.ai/library/${MODEL} does not support tools`, type: 'api_error' } })
    }

    if (body.stream !== true) return sendJson(res, 200, completionJson(turn, chatIndex))

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
    res.flushHeaders()
    if (turn.fault === 'empty-stream') return void res.end()
    if (turn.fault === 'hang') {
      await Promise.race([wait(options.hangLimitMs ?? 30_000), new Promise((resolve) => res.on('close', resolve))])
      if (!res.destroyed) res.end()
      return
    }
    const id = `chatcmpl-${chatIndex}`
    const send = async (delta: Record<string, unknown>, finishReason: string | null = null): Promise<void> => {
      if (res.destroyed) return
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: MODEL, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`)
      await wait(turn.chunkDelayMs ?? 0)
    }
    const size = Math.max(1, turn.chunkSize ?? 8)

    await send({ role: 'assistant', content: '' })
    for (const piece of split(turn.reasoning ?? '', size)) await send({ reasoning_content: piece })
    const content = contentOf(turn)
    for (const piece of split(content, size)) await send({ content: piece })

    if (turn.fault === 'disconnect') {
      // Let the streamed part reach the client before the socket goes away.
      await wait(30)
      return void res.destroy()
    }
    if (turn.fault === 'malformed-chunk') {
      res.write('data: {"id": "broken", "choices": [{"delta": {"content": "oops"\n\n')
      return void res.end()
    }

    const calls = turn.toolCallJsonInContent ? [] : (turn.toolCalls ?? [])
    for (const [position, call] of calls.entries()) {
      const callId = call.id ?? `call_${chatIndex}_${position}`
      const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args)
      const indexField = turn.toolCallsWithoutIndex ? {} : { index: position }
      await send({ tool_calls: [{ ...indexField, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] })
      for (const piece of split(args, size)) await send({ tool_calls: [{ ...indexField, function: { arguments: piece } }] })
    }
    await send({}, turn.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop'))
    const usage = turn.usage ?? DEFAULT_USAGE
    if (usage && !res.destroyed) {
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: MODEL, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })}\n\n`)
    }
    if (!res.destroyed) res.end('data: [DONE]\n\n')
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = addressOf(server.address())
  const origin = `http://127.0.0.1:${port}`

  return {
    url: `${origin}/v1`,
    origin,
    port,
    requests,
    chatRequests: () => requests.filter((r) => r.path === '/v1/chat/completions'),
    connectionCount: () => connections,
    clientAborts: () => aborts,
    waitForClientAbort: (timeoutMs = 5_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`scripted server: no client abort within ${timeoutMs} ms`)), timeoutMs)
        abortWaiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      }),
    close: () =>
      new Promise<void>((resolve) => {
        timers.forEach((timer) => clearTimeout(timer))
        timers.clear()
        sockets.forEach((socket) => socket.destroy())
        server.close(() => resolve())
      })
  }
}

function contentOf(turn: Turn): string {
  const think = turn.think !== undefined ? `<think>${turn.think}</think>` : ''
  const calls = turn.toolCallJsonInContent && turn.toolCalls
    ? turn.toolCalls.map((call) => JSON.stringify({ name: call.name, arguments: typeof call.args === 'string' ? call.args : call.args })).join('\n')
    : ''
  return think + (turn.text ?? '') + calls
}

function completionJson(turn: Turn, index: number): Record<string, unknown> {
  const toolCalls = turn.toolCallJsonInContent ? [] : (turn.toolCalls ?? [])
  const usage = turn.usage ?? DEFAULT_USAGE
  return {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 0,
    model: MODEL,
    choices: [
      {
        index: 0,
        finish_reason: turn.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
        message: {
          role: 'assistant',
          content: contentOf(turn),
          ...(turn.reasoning !== undefined ? { reasoning_content: turn.reasoning } : {}),
          ...(toolCalls.length > 0
            ? {
                tool_calls: toolCalls.map((call, position) => ({
                  id: call.id ?? `call_${index}_${position}`,
                  type: 'function',
                  function: { name: call.name, arguments: typeof call.args === 'string' ? call.args : JSON.stringify(call.args) }
                }))
              }
            : {})
        }
      }
    ],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {})
  }
}

function split(text: string, size: number): string[] {
  const pieces: string[] = []
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size))
  return pieces
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function parseJson(text: string): unknown {
  if (!text) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function addressOf(address: string | AddressInfo | null): AddressInfo {
  if (address === null || typeof address === 'string') throw new Error('scripted server: no TCP address')
  return address
}
