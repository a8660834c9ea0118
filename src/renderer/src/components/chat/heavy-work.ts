// Renders that cost tens of milliseconds (a chart, a long table) run one per task, in order, so the
// browser can paint and handle input between them instead of freezing for their sum.

const queue: Array<() => void> = []
let scheduled = false

function runNext(): void {
  scheduled = false
  const work = queue.shift()
  if (work) {
    const started = performance.now()
    work()
    // For the long-task test and the curious: how long each deferred render took.
    performance.measure('heavy-work', { start: started, end: performance.now() })
  }
  if (queue.length > 0) schedule()
}

function schedule(): void {
  if (scheduled) return
  scheduled = true
  // A macrotask, not a microtask: React commits `work`'s state change before the next one starts.
  const channel = new MessageChannel()
  channel.port1.onmessage = runNext
  channel.port2.postMessage(null)
}

/** Queues `work`; the returned function takes it out again if it has not run yet. */
export function scheduleHeavyWork(work: () => void): () => void {
  queue.push(work)
  schedule()
  return () => {
    const index = queue.indexOf(work)
    if (index >= 0) queue.splice(index, 1)
  }
}
