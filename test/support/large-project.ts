import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// A big but plausible project for benches and scale tests, shaped like the one nao and Glassbox were compared
// on (issue #17): 4 engines, 20 schemas, 5,000 synced tables (columns, preview and description each, sized
// like real sync output: ~15 KB per table, ~80 MB in all), 300 skills and a 200 KB RULES.md. Content is
// deterministic so runs compare.

export interface LargeProjectShape {
  tables: number
  skills: number
  rulesBytes: number
  /** Columns per table; the table files grow with it (40 gives nao-sized files, ~15 KB per table). */
  columns?: number
}

export const LARGE_PROJECT: LargeProjectShape = { tables: 5000, skills: 300, rulesBytes: 200 * 1024, columns: 40 }

/** One connection per engine; tables go round robin over engines, then over each engine's schemas. */
export const LARGE_PROJECT_ENGINES = [
  { type: 'duckdb', database: 'warehouse' },
  { type: 'postgres', database: 'app' },
  { type: 'bigquery', database: 'analytics' },
  { type: 'snowflake', database: 'finance' }
] as const
const SCHEMAS_PER_ENGINE = 5
const COLUMN_TYPES = ['int64', 'string', 'date', 'float64', 'boolean', 'timestamp']

/** Writes the large project into `dir` (created if needed) and returns its shape. */
export function makeLargeProject(dir: string, shape: LargeProjectShape = LARGE_PROJECT): LargeProjectShape {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'RULES.md'), rulesText(shape.rulesBytes))
  const databases = LARGE_PROJECT_ENGINES.map(
    ({ type, database }) =>
      `- name: ${database}\n  type: ${type}\n  accessors: [columns, preview, description]\n` +
      // A server needs where to connect (the project never does, offline; the config is still complete).
      (type === 'postgres' ? `  host: 127.0.0.1\n  database: ${database}\n  user: analyst\n` : '')
  )
  writeFileSync(join(dir, 'nao_config.yaml'), `project_name: large\ndatabases:\n${databases.join('')}`)
  writeFileSync(join(dir, '.naoignore'), 'templates/\n*.j2\n')
  for (let index = 0; index < shape.tables; index++) writeTable(dir, index, shape.columns ?? 8)
  mkdirSync(join(dir, 'agent', 'skills'), { recursive: true })
  for (let index = 0; index < shape.skills; index++) {
    const name = `skill-${pad(index)}`
    writeFileSync(
      join(dir, 'agent', 'skills', `${name}.md`),
      `---\nname: ${name}\ndescription: How to answer questions about metric ${index}\n---\n${`Step ${index}: join the fact table on its key, then aggregate by month.\n`.repeat(8)}`
    )
  }
  mkdirSync(join(dir, 'docs'), { recursive: true })
  writeFileSync(join(dir, 'docs', 'glossary.md'), '# Glossary\n\nRevenue: sum of amount over completed orders.\n')
  return shape
}

/** The project-relative folder of table number `index`. */
export function largeProjectTableDir(index: number): string {
  const engine = LARGE_PROJECT_ENGINES[index % LARGE_PROJECT_ENGINES.length]
  const schema = `schema_${Math.floor(index / LARGE_PROJECT_ENGINES.length) % SCHEMAS_PER_ENGINE}`
  return `databases/type=${engine.type}/database=${engine.database}/schema=${schema}/table=table_${pad(index)}`
}

function writeTable(dir: string, index: number, columnCount: number): void {
  const relDir = largeProjectTableDir(index)
  const schema = relDir.split('/')[3].slice('schema='.length)
  const table = `table_${pad(index)}`
  const folder = join(dir, ...relDir.split('/'))
  mkdirSync(folder, { recursive: true })
  const columns = Array.from({ length: columnCount }, (_, column) => ({ name: `column_${column}`, type: COLUMN_TYPES[(index + column) % COLUMN_TYPES.length] }))
  const columnLines = columns.map(({ name, type }) => `- ${name} (${type}): ${describeColumn(index, name, type)}`)
  writeFileSync(join(folder, 'columns.md'), `# ${table}\n\n**Dataset:** \`${schema}\`\n\n## Columns (${columnCount})\n\n${columnLines.join('\n')}\n`)
  const header = `| ${columns.map(({ name }) => name).join(' | ')} |`
  const rule = `|${columns.map(() => '---').join('|')}|`
  const rows = Array.from({ length: 10 }, (_, row) => `| ${columns.map((column, at) => sampleValue(index, row, at, column.type)).join(' | ')} |`)
  writeFileSync(join(folder, 'preview.md'), `# ${table} - Preview\n\n**Dataset:** \`${schema}\`\n\n## Rows (10)\n\n${header}\n${rule}\n${rows.join('\n')}\n`)
  const notes = Array.from({ length: Math.ceil(columnCount / 4) }, (_, note) => `- Column group ${note} holds the measures of step ${note} of business process ${index}.`)
  writeFileSync(
    join(folder, 'description.md'),
    `# ${table}\n\n**Dataset:** \`${schema}\`\n\n## Description\n\nRows of business process ${index}, one per event, loaded nightly.\n\n${notes.join('\n')}\n`
  )
}

function describeColumn(table: number, name: string, type: string): string {
  return `the ${type} value recorded for ${name} of process ${table}, as loaded from the source system, never null`
}

function sampleValue(table: number, row: number, column: number, type: string): string {
  if (type === 'date') return `2024-0${1 + (row % 9)}-1${row % 10}`
  if (type === 'timestamp') return `2024-0${1 + (row % 9)}-1${row % 10} 12:3${column % 10}:00`
  if (type === 'boolean') return (row + column) % 2 === 0 ? 'true' : 'false'
  if (type === 'string') return `label ${table}-${row}-${column}`
  return String((table * 31 + row * 7 + column) % 100_000)
}

/** Distinct rules in headed blocks of short paragraphs, as a long hand-written RULES.md looks. */
function rulesText(bytes: number): string {
  const parts = ['# Rules\n\n']
  let length = parts[0].length
  for (let rule = 0; length < bytes; rule++) {
    const heading = rule % 20 === 0 ? `## Topic ${rule / 20}\n\n` : ''
    const paragraph = `${heading}Rule ${rule}: revenue of segment ${rule % 37} is reported in euros, net of refunds, by calendar month unless asked otherwise.\nCount orders of channel ${rule % 11} once per customer and day; exclude test accounts.\n\n`
    parts.push(paragraph)
    length += paragraph.length
  }
  return parts.join('').slice(0, bytes)
}

function pad(index: number): string {
  return String(index).padStart(4, '0')
}
