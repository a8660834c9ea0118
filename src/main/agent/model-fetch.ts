// Fetch wrappers for the model client. Each is a small `(fetch) => fetch`, so several stack
// (e.g. `captureRequests(retryStaleConnection(fetch))`) without knowing of each other.

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** Codes of a connection that died before the server answered anything (undici and Node names). */
const STALE_CONNECTION_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED'])
const STALE_CONNECTION_TEXT = /other side closed|socket hang up|ECONNRESET|EPIPE/i

/**
 * A keep-alive socket the server closed while idle is found out only when a request is written to it: the
 * request fails at once with `other side closed` (or ECONNRESET), before any response byte, although the
 * server is fine. The moment right after a streamed answer ends is when this happens most (llama.cpp closes
 * the connection as the next request goes out). Such a failure is retried once, after one turn of the event
 * loop so the pool has dropped the dead socket and the retry goes out on a fresh connection. Anything else —
 * a refused connection, an HTTP error, a failure after the response began, a cancel — is passed on untouched.
 */
export function retryStaleConnection(fetchImpl: FetchLike): FetchLike {
  return async (input, init) => {
    try {
      return await fetchImpl(input, init)
    } catch (error) {
      // A body that is a stream was consumed by the first attempt; the model client sends strings.
      const replayable = init?.body === undefined || init.body === null || typeof init.body === 'string'
      if (init?.signal?.aborted || !replayable || !isStaleConnection(error)) throw error
      await new Promise<void>((resolve) => setTimeout(resolve, STALE_RETRY_DELAY_MS))
      if (init?.signal?.aborted) throw error
      return fetchImpl(input, init)
    }
  }
}

/** Long enough for the closed socket's end to be processed (a probe: 10 ms always sufficed). */
const STALE_RETRY_DELAY_MS = 10

/** True for a connection closed under a request before any response arrived. */
export function isStaleConnection(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = 'code' in current && typeof current.code === 'string' ? current.code : ''
    if (code === 'ECONNREFUSED') return false
    if (STALE_CONNECTION_CODES.has(code) || STALE_CONNECTION_TEXT.test(current.message)) return true
    current = current.cause
  }
  return false
}

/** The fetch every model request goes through. */
export const modelFetch: FetchLike = retryStaleConnection((input, init) => fetch(input, init))
