import { monotonicMs } from '../monotonic-clock'

// Long synchronous work on the project (listing thousands of folders, reading hundreds of small files) runs in
// slices: synchronous calls skip the thread pool's round trips, and yielding between slices keeps the process
// answering (IPC, HTTP, timers) while a big project opens.

/** Longest stretch of synchronous work before the event loop gets a turn. */
export const SLICE_MS = 15

/**
 * A function to call between units of work: undefined while the slice lasts, else a promise to await that
 * yields to the event loop. Not a promise every time: awaiting even a settled one is a microtask hop, and
 * 300 skills would make 300 of them.
 */
/** What timeSlicer gives: call it between units of work, and await what it returns when it returns something. */
export type TimeSlice = () => Promise<void> | undefined

export function timeSlicer(sliceMs = SLICE_MS): TimeSlice {
  let sliceStart = monotonicMs()
  return () => {
    if (monotonicMs() - sliceStart <= sliceMs) return undefined
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        sliceStart = monotonicMs()
        resolve()
      })
    )
  }
}
