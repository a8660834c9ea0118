import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// A big but plausible project for benches and scale tests: 5,000 synced tables (columns, preview and
// description each), 300 skills and a 200 KB RULES.md. Content is deterministic so runs compare.

export interface LargeProjectShape {
  tables: number
  skills: number
  rulesBytes: number
}

export const LARGE_PROJECT: LargeProjectShape = { tables: 5000, skills: 300, rulesBytes: 200 * 1024 }

const SCHEMAS = 10
const COLUMN_TYPES = ['int64', 'string', 'date', 'float64', 'boolean', 'timestamp']

/** Writes the large project into `dir` (created if needed) and returns its shape. */
export function makeLargeProject(dir: string, shape: LargeProjectShape = LARGE_PROJECT): LargeProjectShape {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'RULES.md'), rulesText(shape.rulesBytes))
  writeFileSync(join(dir, 'nao_config.yaml'), 'project_name: large\ndatabases:\n- name: warehouse\n  type: duckdb\n  accessors: [columns, preview, description]\n')
  writeFileSync(join(dir, '.naoignore'), 'templates/\n*.j2\n')
  for (let index = 0; index < shape.tables; index++) writeTable(dir, index)
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

function writeTable(dir: string, index: number): void {
  const schema = `schema_${index % SCHEMAS}`
  const table = `table_${pad(index)}`
  const folder = join(dir, 'databases', 'type=duckdb', 'database=warehouse', `schema=${schema}`, `table=${table}`)
  mkdirSync(folder, { recursive: true })
  const columns = Array.from({ length: 8 }, (_, column) => `column_${column} (${COLUMN_TYPES[(index + column) % COLUMN_TYPES.length]})`)
  writeFileSync(join(folder, 'columns.md'), `# ${table}\n\n**Dataset:** \`${schema}\`\n\n## Columns (8)\n\n${columns.map((column) => `- ${column}`).join('\n')}\n`)
  const rows = Array.from({ length: 5 }, (_, row) => `| ${row} | value ${index}-${row} | 2024-01-0${row + 1} |`)
  writeFileSync(join(folder, 'preview.md'), `# ${table} - Preview\n\n**Dataset:** \`${schema}\`\n\n## Rows (5)\n\n| id | label | day |\n|---|---|---|\n${rows.join('\n')}\n`)
  writeFileSync(join(folder, 'description.md'), `# ${table}\n\n**Dataset:** \`${schema}\`\n\n## Description\n\nRows of business process ${index}.\n`)
}

function rulesText(bytes: number): string {
  const line = 'Revenue is always reported in euros, net of refunds, by calendar month unless asked otherwise.\n'
  return `# Rules\n\n${line.repeat(Math.ceil(bytes / line.length))}`.slice(0, bytes)
}

function pad(index: number): string {
  return String(index).padStart(4, '0')
}
