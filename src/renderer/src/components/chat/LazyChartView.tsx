import { lazy, Suspense } from 'react'
import type { ChartSpec } from '../../state/tool-data'

// The chart library loads on first use, after the app has painted.
const ChartView = lazy(() => import('./ChartView').then((module) => ({ default: module.ChartView })))

export function LazyChartView({ spec }: { spec: ChartSpec }): React.JSX.Element {
  return (
    <Suspense fallback={<div className="chart pending muted small">Drawing chart…</div>}>
      <ChartView spec={spec} />
    </Suspense>
  )
}
