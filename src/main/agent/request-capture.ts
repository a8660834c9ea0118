import { AsyncLocalStorage } from 'node:async_hooks'
import type { FetchLike } from './model-fetch'

// Records every request body exactly as it goes over the wire, where the HTTP request is made: a fetch
// wrapper of the composable `(fetch) => fetch` shape handed to the OpenAI client (other wrappers, such as
// retries, stack around it). Chat models are cached and shared by runs, so the wrapper does not know the
// run itself: whoever wants the bodies runs its code inside `captureRequests(onRequest, work)`, and every
// request made by that work — however deep in the client library — is reported to `onRequest`.

export interface CapturedRequest {
  url: string
  method: string
  /** The body exactly as handed to fetch (the OpenAI client sends a JSON string). */
  body: string
}

const listeners = new AsyncLocalStorage<(request: CapturedRequest) => void>()

/** Runs `work`; every request it makes through a `withRequestCapture` fetch is reported, in order. */
export function captureRequests<T>(onRequest: (request: CapturedRequest) => void, work: () => T): T {
  return listeners.run(onRequest, work)
}

/** Wraps a fetch so requests made inside `captureRequests` are reported before they are sent. */
export function withRequestCapture(inner: FetchLike): FetchLike {
  return (input, init) => {
    const listener = listeners.getStore()
    if (listener) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
      const body = init?.body
      // Only string bodies can be recorded without consuming them; the OpenAI client always sends one.
      if (typeof body === 'string') {
        try {
          listener({ url, method: init?.method ?? 'GET', body })
        } catch {
          // Recording must never break the request itself.
        }
      }
    }
    return inner(input, init)
  }
}
