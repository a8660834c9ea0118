import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import { chartToPng } from '../../export/chart-image'
import { fileNameFrom } from '../../export/save'
import { useExporter } from '../../export/use-exporter'
import type { ChartSpec } from '../../state/tool-data'
import { scheduleHeavyWork } from './heavy-work'

// The chart library loads on first use, after the app has painted. A chart is drawn only once it comes
// near the viewport, and charts are drawn one per task, so opening a chat with many charts never blocks
// the page for long.
const ChartView = lazy(() => import('./ChartView').then((module) => ({ default: module.ChartView })))

export function LazyChartView({ spec }: { spec: ChartSpec }): React.JSX.Element {
  const placeholder = useRef<HTMLElement>(null)
  const [ready, setReady] = useState(false)
  const save = useExporter()
  useEffect(() => {
    const element = placeholder.current
    if (ready || !element) return
    let cancel = (): void => undefined
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return
        observer.disconnect()
        cancel = scheduleHeavyWork(() => flushSync(() => setReady(true)))
      },
      { rootMargin: '200px' }
    )
    observer.observe(element)
    return () => {
      observer.disconnect()
      cancel()
    }
  }, [ready])
  // Same box as the drawn chart, so drawing it later moves nothing (no jump, no scroll under the reader).
  const pending = (
    <figure className="chart pending" ref={placeholder} aria-label={`Chart: ${spec.title}`} aria-busy="true">
      <figcaption>{spec.title}</figcaption>
      <div className="chart-column muted small chart-drawing">Drawing chart…</div>
      <div className="chart-foot">
        <p className="muted small chart-source">&nbsp;</p>
      </div>
    </figure>
  )
  if (!ready) return pending
  const actions = (
    <button
      className="icon-button"
      title="Save this chart as a PNG image"
      onClick={() =>
        void save(async () => {
          const png = await chartToPng(spec)
          if (!png) throw new Error('the chart has no rows to draw.')
          return { suggestedName: fileNameFrom(spec.title, 'png'), content: png.slice(png.indexOf(',') + 1), encoding: 'base64', filter: { name: 'PNG image', extensions: ['png'] } }
        })
      }
    >
      Save PNG
    </button>
  )
  return (
    <Suspense fallback={pending}>
      <ChartView spec={spec} actions={actions} />
    </Suspense>
  )
}
