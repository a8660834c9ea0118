import { useState } from 'react'
import { formatAxisNumber, formatNumber } from '../../state/locale'
import type { ChartSpec } from '../../state/tool-data'
import { seriesColor } from './chart-palette'

// Bar, line and area charts of hundreds of points, drawn as one SVG path per series. A general chart
// library spends a component and a DOM node on every bar (well over 100 ms for 500 bars); here the cost
// is a string per series, so a chat full of long series stays smooth. Same colours, axes and tooltip
// content as the small charts.

const MARGIN = { top: 10, right: 16, bottom: 26, left: 58 }
const AXIS_TEXT = '#5f6776'
const GRID = '#e6e8ec'

interface Props {
  spec: ChartSpec
  points: Record<string, unknown>[]
  width: number
  height: number
}

const numberOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

/** About five round tick values covering [min, max]. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (min === max) return [min]
  const raw = (max - min) / count
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = ([1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= raw) ?? raw)
  const ticks: number[] = []
  // From the step at or below min to the first step at or above max, so every value is inside the axis.
  for (let index = Math.floor(min / step); ; index++) {
    ticks.push(index * step + 0)
    if (index * step >= max) break
  }
  return ticks
}

export function BigSeriesChart({ spec, points, width, height }: Props): React.JSX.Element {
  const [hover, setHover] = useState<number | null>(null)
  const plotWidth = Math.max(10, width - MARGIN.left - MARGIN.right)
  const plotHeight = Math.max(10, height - MARGIN.top - MARGIN.bottom)
  const count = points.length
  const band = plotWidth / count
  const values = spec.series.map((series) => points.map((point) => numberOf(point[series.dataKey])))
  const all = values.flat().filter((value): value is number => value !== null)
  const ticks = niceTicks(Math.min(0, ...all), Math.max(0, ...all))
  const low = ticks[0]
  const high = ticks[ticks.length - 1]
  const y = (value: number): number => MARGIN.top + plotHeight - ((value - low) / (high - low || 1)) * plotHeight
  const baseline = y(Math.max(low, Math.min(0, high)))
  const bars = !spec.chartType.includes('line') && !spec.chartType.includes('area')
  const paths = values.map((series, index) => {
    let d = ''
    if (bars) {
      const width = Math.max(0.5, (band * 0.8) / values.length)
      series.forEach((value, at) => {
        if (value === null) return
        const x = MARGIN.left + at * band + band * 0.1 + index * width
        const top = Math.min(y(value), baseline)
        d += `M${x.toFixed(1)} ${top.toFixed(1)}h${width.toFixed(2)}v${Math.abs(baseline - y(value)).toFixed(1)}h${(-width).toFixed(2)}z`
      })
    } else {
      let pen = 'M'
      series.forEach((value, at) => {
        if (value === null) return (pen = 'M'), undefined
        d += `${pen}${(MARGIN.left + (at + 0.5) * band).toFixed(1)} ${y(value).toFixed(1)}`
        pen = 'L'
      })
    }
    return d
  })
  // One label per slot wide enough for the longest label (about 6.5 px a character at 11 px).
  const texts = points.map((point) => formatAxisNumber(point[spec.xAxisKey]))
  const slot = Math.max(64, Math.max(...texts.map((text) => text.length)) * 6.5 + 16)
  const every = Math.ceil(count / Math.max(1, Math.floor(plotWidth / slot)))
  const labels = texts.flatMap((text, at) => (at % every === 0 ? [{ at, text }] : []))
  return (
    <div className="big-chart" style={{ position: 'relative', width, height }}>
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        aria-hidden
        onMouseMove={(event) => {
          const box = event.currentTarget.getBoundingClientRect()
          const at = Math.floor((event.clientX - box.left - MARGIN.left) / band)
          setHover(at >= 0 && at < count ? at : null)
        }}
        onMouseLeave={() => setHover(null)}
      >
        {ticks.map((tick) => (
          <g key={tick} className="big-chart-grid">
            <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke={GRID} strokeDasharray="3 3" />
            <text x={MARGIN.left - 6} y={y(tick) + 4} textAnchor="end" fontSize={11} fill={AXIS_TEXT} className="big-chart-text">
              {formatAxisNumber(tick)}
            </text>
          </g>
        ))}
        {labels.map((label) => (
          <text key={label.at} x={MARGIN.left + (label.at + 0.5) * band} y={height - 8} textAnchor="middle" fontSize={11} fill={AXIS_TEXT} className="big-chart-text">
            {label.text}
          </text>
        ))}
        <line x1={MARGIN.left} x2={width - MARGIN.right} y1={baseline} y2={baseline} stroke="#8a919c" className="big-chart-axis" />
        {paths.map((d, index) => {
          const color = seriesColor(index, spec.series[index].color)
          if (bars) return <path key={index} d={d} fill={color} />
          const area = spec.chartType.includes('area') && d ? `${d}L${(MARGIN.left + (count - 0.5) * band).toFixed(1)} ${baseline}L${(MARGIN.left + 0.5 * band).toFixed(1)} ${baseline}Z` : null
          return (
            <g key={index}>
              {area && <path d={area} fill={color} fillOpacity={0.2} stroke="none" />}
              <path d={d} fill="none" stroke={color} strokeWidth={2} />
            </g>
          )
        })}
        {hover !== null && <line x1={MARGIN.left + (hover + 0.5) * band} x2={MARGIN.left + (hover + 0.5) * band} y1={MARGIN.top} y2={MARGIN.top + plotHeight} stroke="#8a919c" strokeDasharray="2 2" />}
      </svg>
      {hover !== null && (
        <div className="big-chart-tooltip" style={{ left: Math.min(width - 180, MARGIN.left + (hover + 0.5) * band + 8), top: MARGIN.top }}>
          <strong>{String(points[hover][spec.xAxisKey])}</strong>
          {spec.series.map((series, index) => (
            <div key={series.dataKey}>
              <span className="swatch" style={{ background: seriesColor(index, series.color) }} /> {series.label}: {values[index][hover] === null ? '—' : formatNumber(values[index][hover] ?? 0)}
            </div>
          ))}
        </div>
      )}
    </div>
  )
}
