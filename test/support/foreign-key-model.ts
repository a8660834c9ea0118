import { isAgentRequest, latestTurn, type RecordedRequest, type Turn } from './scripted-openai-server'

// A scripted model that writes its JOIN only from what it read: it reads one table's columns.md, joins
// `<fact>.<keyColumn>` to the table and column the `→ table.column` key there names, and answers with the top
// row. Without the key in the context it says so instead of guessing.

export interface ForeignKeyQuestion {
  /** Project-relative columns.md of the table holding the foreign key. */
  columnsFile: string
  fact: string
  keyColumn: string
  /** The column of the referenced table to group by, and the fact's column to sum. */
  label: string
  amount: string
}

export function modelThatJoinsOnWhatItRead(question: ForeignKeyQuestion): (request: RecordedRequest) => Turn {
  return (request) => {
    if (!isAgentRequest(request)) return { text: '{"memories": []}' }
    const { toolResults } = latestTurn(request)
    if (toolResults.length === 0) return { toolCalls: [{ name: 'read', args: { file_path: question.columnsFile } }] }
    if (toolResults.length === 1) {
      const key = new RegExp(`- ${question.keyColumn} \\([^\\n]*→ (\\w+)\\.(\\w+)`).exec(toolResults[0])
      if (!key) return { text: `columns.md names no key for ${question.keyColumn}.` }
      const [, table, column] = key
      const sql = `SELECT r.${question.label}, SUM(f.${question.amount}) AS total FROM ${question.fact} f JOIN ${table} r ON r.${column} = f.${question.keyColumn} GROUP BY r.${question.label} ORDER BY total DESC`
      return { toolCalls: [{ name: 'execute_sql', args: { sql_query: sql } }] }
    }
    const top = /\| (\w+) \| ([\d.]+) \|/.exec(toolResults[1])
    return { text: top ? `${top[1]} sold the most: ${top[2]}.` : 'The query returned nothing.' }
  }
}
