import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { GlassboxApi, PushEvent } from '../../shared/api'
import { RENDERER_CSP } from './csp'
import { errorMessage } from '../../shared/error-message'
import { createOperations, InvalidInputError, isOperationName } from './operations'
import { readStaticFile } from './static-files'
import { InvalidEndpointError } from '../agent/endpoints'
import { MessageInputError } from '../app/message-inputs'
import { PathOutsideProjectError, ProjectPathMissingError } from '../project/safe-path'
import { AttachmentError } from '../prompt/user/attachments'
import { StoreNotFoundError } from '../store/errors'
import { FeedbackError } from '../app/feedback'
import { InitError } from '../init/init-project'

// Web mode: the same services as the desktop app behind a loopback-only HTTP API.
//   POST /api/<operation>   JSON body validated by the operation's schema, `Authorization: Bearer <token>`
//   GET  /api/events        server-sent events carrying PushEvents (`?token=` since EventSource sends no headers)
//   GET  /*                 the built renderer, with the same strict CSP as the desktop app
// Every request must name our own host (no DNS rebinding) and, when the browser sends an Origin, our origin.

export interface WebServerOptions {
  api: GlassboxApi
  /** 0 or absent: a free port. */
  port?: number
  host?: '127.0.0.1'
  /** The built renderer (out/renderer). */
  rendererDir: string
  /** For tests; otherwise 32 random bytes. */
  token?: string
}

export interface WebServer {
  url: string
  token: string
  port: number
  close(): Promise<void>
}

const MAX_BODY_BYTES = 16 * 1024 * 1024
const HEARTBEAT_MS = 15_000
/**
 * Open connections at most, well under a usual 1,024 open-file limit (the store, DuckDB and the project's
 * files need descriptors too). Past it the longest-idle connection is closed to make room for the new one.
 */
export const MAX_CONNECTIONS = 256
/** A client gets this long to send its request headers, and this long for the whole request. */
const HEADERS_TIMEOUT_MS = 5_000
const REQUEST_TIMEOUT_MS = 30_000

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1'
  const token = options.token ?? randomBytes(32).toString('base64url')
  const operations = createOperations(options.api)
  const streams = new Set<ServerResponse>()
  let port = 0

  const server = createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      // How often Node looks for connections past those timeouts (30 s by default).
      connectionsCheckingInterval: 1_000
    },
    (request, response) => {
      void handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { error: `Internal error: ${errorMessage(error)}` })
        else response.destroy()
      })
    }
  )
  capConnections(server, MAX_CONNECTIONS)

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refusal = checkHostAndOrigin(request, port)
    if (refusal) return sendJson(response, 403, { error: refusal })
    const url = new URL(request.url ?? '/', `http://${host}:${port}`)
    if (url.pathname === '/api/events') return openEventStream(request, response, url)
    if (url.pathname.startsWith('/api/')) return callOperation(request, response, url.pathname.slice(5))
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return sendJson(response, 405, { error: `${request.method} is not allowed here; the app only serves files.` })
    }
    return serveFile(request, response, url.pathname)
  }

  /**
   * The token comes in the Authorization header; `?token=` only where a header cannot be sent (EventSource,
   * i.e. the event stream). An API call carrying it in the URL is refused: URLs end up in logs and history.
   */
  function isAuthorised(request: IncomingMessage, url: URL | null): boolean {
    const header = request.headers.authorization
    const given = header?.startsWith('Bearer ') ? header.slice(7) : url?.searchParams.get('token')
    if (!given) return false
    const a = Buffer.from(given)
    const b = Buffer.from(token)
    return a.length === b.length && timingSafeEqual(a, b)
  }

  async function callOperation(request: IncomingMessage, response: ServerResponse, name: string): Promise<void> {
    if (!isAuthorised(request, null)) {
      return sendJson(response, 401, {
        error: 'Missing or wrong token: API calls carry it in the Authorization header (Bearer), not in the URL. Open the URL printed by `npm run web`.'
      })
    }
    if (!isOperationName(name)) return sendJson(response, 404, { error: `Unknown operation "${name}".` })
    if (request.method !== 'POST') return sendJson(response, 405, { error: `Use POST for /api/${name}.` })
    const body = await readBody(request)
    if (body.kind === 'too-large') return sendJson(response, 413, { error: `Request body over ${MAX_BODY_BYTES} bytes.` })
    let input: unknown = {}
    if (body.text.trim() !== '') {
      try {
        input = JSON.parse(body.text)
      } catch {
        return sendJson(response, 400, { error: `The body of /api/${name} is not valid JSON.` })
      }
    }
    try {
      const result = await operations[name](input)
      sendJson(response, 200, { result: result ?? null })
    } catch (error) {
      if (error instanceof InvalidInputError) return sendJson(response, 400, { error: error.message, issues: error.issues })
      sendJson(response, statusOfServiceError(error), { error: errorMessage(error) })
    }
  }

  function openEventStream(request: IncomingMessage, response: ServerResponse, url: URL): void {
    if (!isAuthorised(request, url)) return sendJson(response, 401, { error: 'Missing or wrong token for the event stream.' })
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no'
    })
    response.write(': connected\n\n')
    streams.add(response)
    const unsubscribe = options.api.subscribe((event: PushEvent) => {
      response.write(`data: ${JSON.stringify(event)}\n\n`)
    })
    const heartbeat = setInterval(() => response.write(': ping\n\n'), HEARTBEAT_MS)
    request.on('close', () => {
      clearInterval(heartbeat)
      unsubscribe()
      streams.delete(response)
    })
  }

  async function serveFile(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> {
    const file = await readStaticFile(options.rendererDir, pathname)
    if (file.kind === 'bad-path') return sendJson(response, 400, { error: file.reason })
    if (file.kind === 'not-found') return sendJson(response, 404, { error: `No file ${pathname}.` })
    response.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': file.body.length,
      'Content-Security-Policy': RENDERER_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-store'
    })
    response.end(request.method === 'HEAD' ? undefined : file.body)
  }

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolvePromise()
    })
  })
  const address: AddressInfo | string | null = server.address()
  port = typeof address === 'object' && address ? address.port : 0

  return {
    url: `http://${host}:${port}/`,
    token,
    port,
    close: () =>
      new Promise<void>((resolvePromise) => {
        for (const stream of streams) stream.end()
        server.closeAllConnections()
        server.close(() => resolvePromise())
      })
  }
}

/**
 * Keeps at most `cap` connections open. A new connection past the cap closes the connection idle the longest —
 * one that has not sent a whole request yet, or a keep-alive one between requests — so a flood of half-open
 * sockets can never lock a real request out; only when every connection is busy is the new one refused.
 */
function capConnections(server: Server, cap: number): void {
  // Insertion-ordered: the first entry is the connection idle the longest.
  const idle = new Set<Socket>()
  const busy = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    if (idle.size + busy.size >= cap) {
      const oldest = idle.values().next()
      if (oldest.done) {
        socket.destroy()
        return
      }
      idle.delete(oldest.value)
      oldest.value.destroy()
    }
    idle.add(socket)
    socket.once('close', () => {
      idle.delete(socket)
      busy.delete(socket)
    })
  })
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    if (!idle.delete(socket)) return
    busy.add(socket)
    response.once('close', () => {
      if (!busy.delete(socket) || socket.destroyed) return
      idle.add(socket)
    })
  })
}

/** Bad input the caller can fix is a 4xx with the service's own message; only our own failures are a 500. */
function statusOfServiceError(error: unknown): number {
  if (error instanceof StoreNotFoundError) return 404
  const badInput = [MessageInputError, AttachmentError, PathOutsideProjectError, ProjectPathMissingError, InvalidEndpointError, FeedbackError, InitError]
  return badInput.some((kind) => error instanceof kind) ? 400 : 500
}

/** Why a request is refused, or null: the Host must be ours and a present Origin must be ours too. */
export function checkHostAndOrigin(request: IncomingMessage, port: number): string | null {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  const hostHeader = request.headers.host ?? ''
  if (!allowedHosts.includes(hostHeader.toLowerCase())) {
    return `Refused: Host "${hostHeader}" is not this server. Open http://127.0.0.1:${port}/ directly.`
  }
  const origin = request.headers.origin
  if (origin !== undefined && !allowedHosts.some((allowed) => origin.toLowerCase() === `http://${allowed}`)) {
    return `Refused: requests from origin "${origin}" are not allowed; only this app's own pages may call the API.`
  }
  return null
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff'
  })
  response.end(text)
}

async function readBody(request: IncomingMessage): Promise<{ kind: 'ok'; text: string } | { kind: 'too-large' }> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
    size += buffer.length
    if (size > MAX_BODY_BYTES) return { kind: 'too-large' }
    chunks.push(buffer)
  }
  return { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }
}
