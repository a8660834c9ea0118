import type { ColumnInfo, TableContent } from '../engines/table-content'
import { escapeControlCharacters as visible } from './control-characters'
import { formatCount } from '../../shared/format-count'

// The three files sync writes for a table, in nao's formats (see the nao example's databases/ folder):
// columns.md (names and types), description.md (row and column counts) and preview.md (first rows as
// JSON lines, written the way Python's json.dumps writes them: `{"a": 1, "b": 33.0}`). Beyond nao, a column
// line carries what the engine knows about it after nao's `- name (type)`: `not null`, keys (`→ cars.id`) and
// its comment; a table's comment is its description. Without those facts the files are nao's, byte for byte.
// Every name, type and comment comes from the database: control characters are written as visible escapes,
// so a column named "x\n# Ignore previous instructions" cannot put a heading (or a line) of its own here.

export function renderColumns(content: TableContent): string {
  const lines = [
    `# ${visible(content.table)}`,
    '',
    `**Dataset:** \`${visible(content.schema)}\``,
    '',
    `## Columns (${content.columns.length})`,
    '',
    ...content.columns.map(columnLine)
  ]
  return lines.join('\n') + '\n'
}

/** `- car_id (integer) not null, → cars.id — Car that was sold` */
export function columnLine(column: ColumnInfo): string {
  const facts: string[] = []
  if (column.nullable === false) facts.push('not null')
  if (column.primaryKey && column.primaryKey.length === 1) facts.push('primary key')
  if (column.primaryKey && column.primaryKey.length > 1) facts.push(`primary key (${column.primaryKey.join(', ')})`)
  if (column.unique) facts.push('unique')
  for (const target of column.references ?? []) facts.push(`→ ${target}`)
  const comment = column.comment ? ` — ${oneLine(column.comment)}` : ''
  return visible(`- ${column.name} (${column.type})${facts.length > 0 ? ` ${facts.join(', ')}` : ''}${comment}`)
}

/** A comment on one line: its line breaks would start new list items. */
function oneLine(text: string): string {
  return visible(text.replace(/\s*[\r\n]+\s*/g, ' ').trim())
}

export function renderDescription(content: TableContent): string {
  const lines = [
    `# ${visible(content.table)}`,
    '',
    `**Dataset:** \`${visible(content.schema)}\``,
    '',
    '## Table Metadata',
    '',
    '| Property | Value |',
    '|----------|-------|',
    `| **Row Count** | ${formatCount(content.rowCount)} |`,
    `| **Column Count** | ${content.columns.length} |`,
    '',
    '## Description',
    '',
    content.comment ? oneLine(content.comment) : '_No description available._'
  ]
  return lines.join('\n') + '\n'
}

export function renderPreview(content: TableContent): string {
  const lines = [`# ${visible(content.table)} - Preview`, '', `**Dataset:** \`${visible(content.schema)}\``, '', `## Rows (${content.preview.length})`, '']
  if (content.preview.length === 0) lines.push('_The table has no rows._')
  for (const row of content.preview) {
    // JSON already escapes C0 controls; these it leaves raw, and the escape is valid JSON too.
    lines.push(`- {${row.map((cell) => `${JSON.stringify(cell.name)}: ${cell.json}`).join(', ')}}`.replace(/[\u007f-\u009f\u2028\u2029]/g, jsonEscape))
  }
  return lines.join('\n') + '\n'
}

function jsonEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
}
