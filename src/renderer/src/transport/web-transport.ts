import type { GlassboxApi, PushEvent } from '../../../shared/api'
import { createApiCalls } from '../../../shared/api-client'

// Web mode: every operation is `POST /api/<op>` with the token as a bearer header; push events arrive over
// one shared EventSource (`/api/events?token=`). The token comes from the first page URL and is kept in
// sessionStorage, then removed from the address bar so it does not end up in history or screenshots.

const TOKEN_KEY = 'glassbox-token'

export function takeTokenFromUrl(): string | null {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl)
    url.searchParams.delete('token')
    window.history.replaceState(null, '', url.pathname + url.search + url.hash)
    return fromUrl
  }
  return sessionStorage.getItem(TOKEN_KEY)
}

/** The server's answer: `{ result }` on success, `{ error, issues? }` otherwise. */
type WebReply<T> = { result: T } | { error: string }

export interface WebTransport {
  api: GlassboxApi
  /** Called when the event stream comes back after a drop (events in between were missed). */
  onReconnect(listener: () => void): () => void
}

export function createWebTransport(token: string): WebTransport {
  async function call<T>(operation: string, input: unknown = {}): Promise<T> {
    let response: Response
    try {
      response = await fetch(`/api/${operation}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(input)
      })
    } catch {
      throw new Error('Glassbox web server is not reachable. Is `npm run web` still running?')
    }
    let reply: WebReply<T>
    try {
      reply = await response.json()
    } catch {
      throw new Error(`The server answered ${response.status} without JSON for ${operation}.`)
    }
    if ('error' in reply) throw new Error(reply.error)
    if (!response.ok || !('result' in reply)) throw new Error(`${operation} failed (${response.status}).`)
    return reply.result
  }

  const listeners = new Set<(event: PushEvent) => void>()
  const reconnectListeners = new Set<() => void>()
  let source: EventSource | null = null
  let dropped = false
  function ensureStream(): void {
    if (source) return
    source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`)
    source.onerror = () => {
      dropped = true
    }
    source.onopen = () => {
      if (!dropped) return
      dropped = false
      for (const listener of reconnectListeners) listener()
    }
    source.onmessage = (message: MessageEvent<string>) => {
      let event: PushEvent
      try {
        event = JSON.parse(message.data)
      } catch {
        return
      }
      for (const listener of listeners) listener(event)
    }
  }

  const api: GlassboxApi = {
    ...createApiCalls(call),
    subscribe(listener) {
      listeners.add(listener)
      ensureStream()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && source) {
          source.close()
          source = null
        }
      }
    }
  }
  return {
    api,
    onReconnect(listener) {
      reconnectListeners.add(listener)
      return () => {
        reconnectListeners.delete(listener)
      }
    }
  }
}
