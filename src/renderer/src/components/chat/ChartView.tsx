import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts'
import type { ChartSpec } from '../../state/tool-data'

// A chart drawn from the rows of the query it names (display_chart), never from numbers the model typed.

const PALETTE = ['#2f6fde', '#17a589', '#e67e22', '#8e44ad', '#c0392b', '#7f8c8d']

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

export function ChartView({ spec }: { spec: ChartSpec }): React.JSX.Element {
  const points = toPoints(spec)
  if (!spec.table) return <p className="muted small">Chart "{spec.title}": the rows of query {spec.queryId ?? '(none)'} are not available.</p>
  if (points.length === 0) return <p className="muted small">Chart "{spec.title}": the query returned no rows to draw.</p>
  const color = (index: number, own?: string): string => own ?? PALETTE[index % PALETTE.length]
  const common = { data: points, margin: { top: 8, right: 16, bottom: 4, left: 0 } }
  const axes = [
    <CartesianGrid key="grid" strokeDasharray="3 3" stroke="#e6e8ec" />,
    <XAxis key="x" dataKey={spec.xAxisKey} tick={{ fontSize: 11 }} stroke="#8a919c" />,
    <YAxis key="y" tick={{ fontSize: 11 }} stroke="#8a919c" width={48} />,
    <Tooltip key="tip" />,
    <Legend key="legend" wrapperStyle={{ fontSize: 12 }} />
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
        <XAxis dataKey={spec.xAxisKey} name={spec.xAxisKey} tick={{ fontSize: 11 }} stroke="#8a919c" type="number" />
        <YAxis dataKey={spec.series[0]?.dataKey} name={spec.series[0]?.label} tick={{ fontSize: 11 }} stroke="#8a919c" width={48} />
        <Tooltip />
        {spec.series.slice(0, 1).map((series, index) => (
          <Scatter key={series.dataKey} name={series.label} data={points} fill={color(index, series.color)} isAnimationActive={false} />
        ))}
      </ScatterChart>
    )
  } else if (spec.chartType.includes('pie')) {
    const series = spec.series[0]
    chart = (
      <PieChart>
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 12 }} />
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
  return (
    <figure className="chart" data-testid="chart">
      <figcaption>{spec.title}</figcaption>
      <div className="chart-canvas">
        <ResponsiveContainer width="100%" height={240}>
          {chart}
        </ResponsiveContainer>
      </div>
      <p className="muted small chart-source">
        From query <code>{spec.queryId}</code> · {points.length} rows
      </p>
    </figure>
  )
}
