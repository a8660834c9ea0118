import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts'
import { queryLabel } from '../common/plain-words'
import { BigSeriesChart } from './BigSeriesChart'
import { seriesColor } from './chart-palette'
import { formatAxisNumber, formatNumber } from '../../state/locale'
import type { ChartSpec } from '../../state/tool-data'
import { startTransition, useLayoutEffect, useRef, useState } from 'react'

const CHART_HEIGHT = 240

/**
 * The width of the chart's column. The chart is drawn at that width as a transition: React renders it in
 * slices of a few milliseconds, so a chart of hundreds of bars never holds the page for long.
 */
function useColumnWidth(): [React.RefObject<HTMLDivElement | null>, number | null] {
  const ref = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState<number | null>(null)
  useLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    const measure = (): void => {
      const next = Math.floor(element.clientWidth)
      startTransition(() => setWidth((current) => (current === next ? current : next)))
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  return [ref, width]
}

// A chart drawn from the rows of the query it names (display_chart), never from numbers the model typed.


function toPoints(spec: ChartSpec): Record<string, unknown>[] {
  const table = spec.table
  if (!table) return []
  return table.rows.map((row) => {
    const point: Record<string, unknown> = {}
    table.columns.forEach((column, index) => {
      const value = row[index]
      point[column] = typeof value === 'string' && column !== spec.xAxisKey && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value
    })
    return point
  })
}

const tooltipValue = (value: unknown): string => (typeof value === 'number' ? formatNumber(value) : String(value))

interface Props {
  spec: ChartSpec
  /** Fixed size (export to PNG); by default the chart fills its column. */
  size?: { width: number; height: number }
  /** Buttons under the chart (save as PNG). */
  actions?: React.ReactNode
}

/** The chart's drawing alone, for the PNG export: no HTML legend, fixed size, no animation. */
export function ChartDrawing({ spec, width, height }: { spec: ChartSpec; width: number; height: number }): React.JSX.Element | null {
  return drawChart(spec, toPoints(spec), { width, height, legend: false })
}

export function ChartView({ spec, size, actions }: Props): React.JSX.Element {
  const [column, columnWidth] = useColumnWidth()
  const points = toPoints(spec)
  if (!spec.table) return <p className="muted small">Chart "{spec.title}": the rows of <span title={spec.queryId ?? undefined}>{queryLabel(spec.queryId)}</span> are not available.</p>
  if (points.length === 0) return <p className="muted small">Chart "{spec.title}": the query returned no rows to draw.</p>
  const drawn = size ?? (columnWidth ? { width: columnWidth, height: CHART_HEIGHT } : null)
  const name = `${spec.title}: ${spec.chartType} chart of ${spec.series.map((series) => series.label).join(', ')} by ${spec.xAxisKey}, ${formatNumber(points.length)} ${points.length === 1 ? 'point' : 'points'}`
  return (
    <figure className="chart" data-testid="chart" aria-label={name}>
      <figcaption>{spec.title}</figcaption>
      <div className="chart-canvas" role="img" aria-label={name}>
        <div ref={column} className="chart-column" style={{ height: drawn?.height ?? CHART_HEIGHT }}>
          {drawn && drawChart(spec, points, { ...drawn, legend: true })}
        </div>
      </div>
      <div className="chart-foot">
        <p className="muted small chart-source">
          From <span className="technical-id" title={spec.queryId ?? undefined}>{queryLabel(spec.queryId)}</span> · {formatNumber(points.length)} rows
        </p>
        {actions}
      </div>
    </figure>
  )
}

/** Above this many points, bar, line and area charts are drawn by BigSeriesChart. */
const MANY_POINTS = 120

/**
 * With many categories, label every n-th one (about one per 64 px). A fixed interval also spares recharts
 * from measuring every label's width, which for 500 labels costs more than drawing the chart.
 */
function tickInterval(count: number, width: number | undefined): number | 'preserveEnd' {
  const fits = Math.max(1, Math.floor((width ?? 600) / 64))
  return count <= fits ? 'preserveEnd' : Math.ceil(count / fits) - 1
}

function drawChart(spec: ChartSpec, points: Record<string, unknown>[], options: { width?: number; height?: number; legend: boolean }): React.JSX.Element {
  const cartesian = !spec.chartType.includes('pie') && spec.chartType !== 'scatter' && !spec.chartType.startsWith('stacked')
  if (cartesian && points.length > MANY_POINTS && options.width && options.height) {
    return (
      <>
        <BigSeriesChart spec={spec} points={points} width={options.width} height={options.legend ? options.height - 24 : options.height} />
        {options.legend && (
          <ul className="big-chart-legend">
            {spec.series.map((series, index) => (
              <li key={series.dataKey}>
                <span className="swatch" style={{ background: seriesColor(index, series.color) }} /> {series.label}
              </li>
            ))}
          </ul>
        )}
      </>
    )
  }
  const color = seriesColor
  const common = { data: points, margin: { top: 8, right: 16, bottom: 4, left: 0 }, width: options.width, height: options.height }
  const legend = options.legend ? <Legend key="legend" wrapperStyle={{ fontSize: 12 }} /> : null
  const axes = [
    <CartesianGrid key="grid" strokeDasharray="3 3" stroke="#e6e8ec" />,
    <XAxis key="x" dataKey={spec.xAxisKey} tick={{ fontSize: 11, fill: '#5f6776' }} stroke="#8a919c" tickFormatter={formatAxisNumber} interval={tickInterval(points.length, options.width)} />,
    <YAxis key="y" tick={{ fontSize: 11, fill: '#5f6776' }} stroke="#8a919c" width={56} tickFormatter={formatAxisNumber} />,
    <Tooltip key="tip" formatter={tooltipValue} />,
    legend
  ]
  const stacked = spec.chartType.startsWith('stacked')
  let chart: React.JSX.Element
  if (spec.chartType.includes('line')) {
    chart = (
      <LineChart {...common}>
        {axes}
        {spec.series.map((series, index) => (
          <Line key={series.dataKey} type="monotone" dataKey={series.dataKey} name={series.label} stroke={color(index, series.color)} strokeWidth={2} dot={false} isAnimationActive={false} />
        ))}
      </LineChart>
    )
  } else if (spec.chartType.includes('area')) {
    chart = (
      <AreaChart {...common}>
        {axes}
        {spec.series.map((series, index) => (
          <Area key={series.dataKey} type="monotone" dataKey={series.dataKey} name={series.label} stackId={stacked ? 'stack' : undefined} stroke={color(index, series.color)} fill={color(index, series.color)} fillOpacity={0.2} isAnimationActive={false} />
        ))}
      </AreaChart>
    )
  } else if (spec.chartType === 'scatter') {
    chart = (
      <ScatterChart {...common}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e6e8ec" />
        <XAxis dataKey={spec.xAxisKey} name={spec.xAxisKey} tick={{ fontSize: 11, fill: '#5f6776' }} stroke="#8a919c" type="number" tickFormatter={formatAxisNumber} />
        <YAxis dataKey={spec.series[0]?.dataKey} name={spec.series[0]?.label} tick={{ fontSize: 11, fill: '#5f6776' }} stroke="#8a919c" width={56} tickFormatter={formatAxisNumber} />
        <Tooltip formatter={tooltipValue} />
        {spec.series.slice(0, 1).map((series, index) => (
          <Scatter key={series.dataKey} name={series.label} data={points} fill={color(index, series.color)} isAnimationActive={false} />
        ))}
      </ScatterChart>
    )
  } else if (spec.chartType.includes('pie')) {
    const series = spec.series[0]
    chart = (
      <PieChart width={options.width} height={options.height}>
        <Tooltip formatter={tooltipValue} />
        {legend}
        <Pie data={points} dataKey={series?.dataKey ?? ''} nameKey={spec.xAxisKey} outerRadius="75%" isAnimationActive={false}>
          {points.map((_, index) => (
            <Cell key={index} fill={color(index)} />
          ))}
        </Pie>
      </PieChart>
    )
  } else {
    chart = (
      <BarChart {...common}>
        {axes}
        {spec.series.map((series, index) => (
          <Bar key={series.dataKey} dataKey={series.dataKey} name={series.label} stackId={stacked ? 'stack' : undefined} fill={color(index, series.color)} radius={stacked ? 0 : [3, 3, 0, 0]} isAnimationActive={false} />
        ))}
      </BarChart>
    )
  }
  return chart
}
