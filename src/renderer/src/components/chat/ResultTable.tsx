import type { TableData } from '../../state/tool-data'

/** A query result as a compact table; shows at most `maxRows` rows and says how many more exist. */
export function ResultTable({ table, maxRows = 50 }: { table: TableData; maxRows?: number }): React.JSX.Element {
  if (table.rows.length === 0) return <p className="muted small">The query returned no rows.</p>
  const shown = table.rows.slice(0, maxRows)
  const hidden = Math.max(table.rowCount, table.rows.length) - shown.length
  return (
    <div className="result-table-wrap">
      <table className="result-table">
        <thead>
          <tr>
            {table.columns.map((column, index) => (
              <th key={`${column}-${index}`}>{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, cellIndex) => (
                <td key={cellIndex} className={typeof cell === 'number' ? 'num' : undefined}>
                  {formatCell(cell)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {hidden > 0 && <p className="muted small table-more">… {hidden.toLocaleString()} more rows not shown</p>}
    </div>
  )
}

export function formatCell(cell: unknown): string {
  if (cell === null || cell === undefined) return 'NULL'
  if (typeof cell === 'number') return Number.isInteger(cell) ? cell.toLocaleString() : cell.toLocaleString(undefined, { maximumFractionDigits: 4 })
  if (typeof cell === 'object') return JSON.stringify(cell)
  return String(cell)
}
