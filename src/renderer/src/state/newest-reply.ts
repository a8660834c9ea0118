import { useState } from 'react'

// Replies can land out of order (a search typed then cleared, a progress read after the final one): only the
// reply to the newest request of a kind may be shown. One tracker per kind of request.

export interface NewestReply {
  /** Marks a new request; the returned check stays true until a later request is begun. */
  begin(): () => boolean
}

export function newestReply(): NewestReply {
  let latest = 0
  return {
    begin() {
      const request = ++latest
      return () => request === latest
    }
  }
}

/** A tracker that lives as long as the component. */
export function useNewestReply(): NewestReply {
  return useState(newestReply)[0]
}
