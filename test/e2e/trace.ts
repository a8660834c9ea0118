import type { CDPSession, Page } from 'playwright-core'

// Main-thread tasks of the page as Chrome's tracing records them: wall time (`dur`) and the time the thread
// actually ran (`tdur`, CPU time). On a machine shared with other work, wall time includes the time the
// thread waited for a core; CPU time is what the page itself cost.

export interface TaskTimes {
  /** Trace clock, in microseconds. */
  startUs: number
  endUs: number
  wallMs: number
  cpuMs: number
}

/** A `performance.measure` the page made while tracing, on the trace clock. */
export interface MeasureSpan {
  name: string
  startUs: number
  endUs: number
}

export interface PageTrace {
  tasks: TaskTimes[]
  measures: MeasureSpan[]
}

interface TraceEvent {
  name?: string
  cat?: string
  ph?: string
  ts?: number
  dur?: number
  tdur?: number
  pid?: number
  tid?: number
  id?: string
  id2?: { local?: string }
  args?: { name?: string }
}

/** Traces the page's renderer main threads (a navigation may move the page to a new renderer) until stopped. */
export async function startPageTrace(page: Page): Promise<() => Promise<PageTrace>> {
  const client: CDPSession = await page.context().newCDPSession(page)
  const events: TraceEvent[] = []
  client.on('Tracing.dataCollected', (payload: { value: TraceEvent[] }) => void events.push(...payload.value))
  const categories = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', '__metadata']
  await client.send('Tracing.start', { traceConfig: { includedCategories: categories, recordMode: 'recordContinuously' }, transferMode: 'ReportEvents' })
  return async () => {
    const complete = new Promise<void>((done) => client.once('Tracing.tracingComplete', () => done()))
    await client.send('Tracing.end')
    await complete
    await client.detach()
    return { tasks: mainThreadTasks(events), measures: measureSpans(events) }
  }
}

/** The page's main-thread tasks over the traced span. */
export async function startTaskTrace(page: Page): Promise<() => Promise<TaskTimes[]>> {
  const stop = await startPageTrace(page)
  return async () => (await stop()).tasks
}

/**
 * For each measure of that name, the main-thread task it ran in (the one it overlaps most: the page's clock is
 * coarsened, so a measure's ends may spill past its task by a fraction of a millisecond). A synchronous measure
 * runs inside one task, so that task's CPU time bounds what it cost.
 */
export function tasksHolding(trace: PageTrace, name: string): TaskTimes[] {
  return trace.measures
    .filter((measure) => measure.name === name)
    .flatMap((measure) => {
      const overlap = (task: TaskTimes) => Math.min(task.endUs, measure.endUs) - Math.max(task.startUs, measure.startUs)
      const best = trace.tasks.reduce<TaskTimes | null>((found, task) => (overlap(task) > (found ? overlap(found) : 0) ? task : found), null)
      return best ? [best] : []
    })
}

function mainThreadTasks(events: TraceEvent[]): TaskTimes[] {
  // Renderer main threads are named CrRendererMain in the metadata events.
  const mains = new Set(events.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`))
  return events
    .filter((event) => event.name === 'RunTask' && event.ph === 'X' && (mains.size === 0 || mains.has(`${event.pid}:${event.tid}`)))
    .map((event) => {
      const startUs = event.ts ?? 0
      const dur = event.dur ?? 0
      return { startUs, endUs: startUs + dur, wallMs: dur / 1000, cpuMs: (event.tdur ?? dur) / 1000 }
    })
}

function measureSpans(events: TraceEvent[]): MeasureSpan[] {
  // User timing measures are async begin/end pairs in `blink.user_timing`, matched by name and id.
  const open = new Map<string, number>()
  const spans: MeasureSpan[] = []
  for (const event of events) {
    if (!event.cat?.includes('blink.user_timing') || !event.name || event.ts === undefined) continue
    const key = `${event.name}|${event.id ?? event.id2?.local ?? ''}`
    if (event.ph === 'b') open.set(key, event.ts)
    else if (event.ph === 'e' && open.has(key)) {
      spans.push({ name: event.name, startUs: open.get(key) ?? event.ts, endUs: event.ts })
      open.delete(key)
    }
  }
  return spans
}
