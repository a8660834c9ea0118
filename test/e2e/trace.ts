import type { CDPSession, Page } from 'playwright-core'

// Main-thread tasks of the page as Chrome's tracing records them: wall time (`dur`) and the time the thread
// actually ran (`tdur`, CPU time). On a machine shared with other work, wall time includes the time the
// thread waited for a core; CPU time is what the page itself cost.

export interface TaskTimes {
  wallMs: number
  cpuMs: number
}

interface TraceEvent {
  name?: string
  ph?: string
  dur?: number
  tdur?: number
  pid?: number
  tid?: number
  args?: { name?: string }
}

export async function startTaskTrace(page: Page): Promise<() => Promise<TaskTimes[]>> {
  const client: CDPSession = await page.context().newCDPSession(page)
  const events: TraceEvent[] = []
  client.on('Tracing.dataCollected', (payload: { value: TraceEvent[] }) => void events.push(...payload.value))
  await client.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', '__metadata'], recordMode: 'recordContinuously' }, transferMode: 'ReportEvents' })
  return async () => {
    const complete = new Promise<void>((done) => client.once('Tracing.tracingComplete', () => done()))
    await client.send('Tracing.end')
    await complete
    await client.detach()
    // The renderer's main thread: named CrRendererMain in the metadata events.
    const main = events.find((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
    return events
      .filter((event) => event.name === 'RunTask' && event.ph === 'X' && (!main || (event.pid === main.pid && event.tid === main.tid)))
      .map((event) => ({ wallMs: (event.dur ?? 0) / 1000, cpuMs: (event.tdur ?? event.dur ?? 0) / 1000 }))
  }
}
