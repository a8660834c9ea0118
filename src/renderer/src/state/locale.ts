// Numbers, durations and token counts formatted one way for the user's locale, in tables, chart axes and
// text alike. The formatters are built once: constructing an Intl.NumberFormat costs more than using it.

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 })
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 4 })
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 })
const seconds = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 })

/** A number as the locale writes it: thousands separators, at most 4 decimals. */
export function formatNumber(value: number): string {
  return Number.isInteger(value) ? integer.format(value) : decimal.format(value)
}

/** Short axis labels: 12,500 → "12.5K" in English, "12,5 k" in French. */
export function formatAxisNumber(value: unknown): string {
  if (typeof value !== 'number') return String(value)
  return Math.abs(value) >= 10_000 ? compact.format(value) : formatNumber(value)
}

/** Milliseconds as "640 ms" under a second, "8.2 s" above. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${integer.format(ms)} ms` : `${seconds.format(ms / 1000)} s`
}

/** A result cell as tables show it: numbers in the locale's format, NULL said, objects as JSON. */
export function formatCell(cell: unknown): string {
  if (cell === null || cell === undefined) return 'NULL'
  if (typeof cell === 'number') return formatNumber(cell)
  if (typeof cell === 'object') return JSON.stringify(cell)
  return String(cell)
}
