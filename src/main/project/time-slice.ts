// Long synchronous work on the project (listing thousands of folders, reading hundreds of small files) runs in
// slices: synchronous calls skip the thread pool's round trips, and yielding between slices keeps the process
// answering (IPC, HTTP, timers) while a big project opens.

/** Longest stretch of synchronous work before the event loop gets a turn. */
export const SLICE_MS = 15

/** A function to call between units of work: it resolves at once, or after yielding when the slice is used up. */
export function timeSlicer(sliceMs = SLICE_MS): () => Promise<void> {
  let sliceStart = performance.now()
  return async () => {
    if (performance.now() - sliceStart <= sliceMs) return
    await new Promise<void>((resolve) => setImmediate(resolve))
    sliceStart = performance.now()
  }
}
