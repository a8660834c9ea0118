// The three files sync writes for a table, in nao's formats (see the nao example's databases/ folder):
// columns.md (names and types), description.md (row and column counts) and preview.md (first rows as
// JSON lines, written the way Python's json.dumps writes them: `{"a": 1, "b": 33.0}`).

export interface ColumnInfo {
  name: string
  /** nao's (ibis) type name: int32, float64, string, date, decimal(10, 2), array<string>, … */
  type: string
}

/** One preview row: column name → the cell already written as JSON text. */
export type PreviewRow = { name: string; json: string }[]

export interface TableContent {
  schema: string
  table: string
  columns: ColumnInfo[]
  rowCount: number
  preview: PreviewRow[]
}

/** Preview cells longer than this are cut, with a marker saying how much was left out. */
export const PREVIEW_CELL_CAP = 1_000
export const PREVIEW_ROWS = 10

export function renderColumns(content: TableContent): string {
  const lines = [
    `# ${content.table}`,
    '',
    `**Dataset:** \`${content.schema}\``,
    '',
    `## Columns (${content.columns.length})`,
    '',
    ...content.columns.map((column) => `- ${column.name} (${column.type})`)
  ]
  return lines.join('\n') + '\n'
}

export function renderDescription(content: TableContent): string {
  const lines = [
    `# ${content.table}`,
    '',
    `**Dataset:** \`${content.schema}\``,
    '',
    '## Table Metadata',
    '',
    '| Property | Value |',
    '|----------|-------|',
    `| **Row Count** | ${content.rowCount.toLocaleString('en-US')} |`,
    `| **Column Count** | ${content.columns.length} |`,
    '',
    '## Description',
    '',
    '_No description available._'
  ]
  return lines.join('\n') + '\n'
}

export function renderPreview(content: TableContent): string {
  const lines = [`# ${content.table} - Preview`, '', `**Dataset:** \`${content.schema}\``, '', `## Rows (${content.preview.length})`, '']
  if (content.preview.length === 0) lines.push('_The table has no rows._')
  for (const row of content.preview) {
    lines.push(`- {${row.map((cell) => `${JSON.stringify(cell.name)}: ${cell.json}`).join(', ')}}`)
  }
  return lines.join('\n') + '\n'
}

/** A float as Python's repr writes it (33.0, 0.1, 1e-05, 1e+16), so previews read like nao's. */
export function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return '"NaN"'
  if (!Number.isFinite(value)) return value > 0 ? '"Infinity"' : '"-Infinity"'
  const [mantissa, exponentText] = value.toExponential().split('e')
  const exponent = Number(exponentText)
  if (exponent >= -4 && exponent < 16) {
    const fixed = String(value)
    return fixed.includes('.') || fixed.includes('e') ? fixed : `${fixed}.0`
  }
  const sign = exponent < 0 ? '-' : '+'
  return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`
}

/** A JSON value written with Python's separators (", " and ": "). */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value)
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`
  if (typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`)
      .join(', ')}}`
  }
  return JSON.stringify(String(value))
}

/** Cuts a long cell, keeping the start and saying how many characters were left out. */
export function capText(text: string, cap = PREVIEW_CELL_CAP): string {
  if (text.length <= cap) return text
  return `${text.slice(0, cap)}… [${(text.length - cap).toLocaleString('en-US')} more characters]`
}

/** Caps a cell's JSON text: a cell too long becomes a JSON string with the marker. */
export function capJson(json: string, cap = PREVIEW_CELL_CAP): string {
  return json.length <= cap ? json : JSON.stringify(capText(json, cap))
}
