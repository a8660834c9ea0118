import { useState } from 'react'
import { tableToCsv } from '../../export/csv'
import { fileNameFrom } from '../../export/save'
import { useExporter } from '../../export/use-exporter'
import { formatCell, formatNumber } from '../../state/locale'
import type { TableData } from '../../state/tool-data'
import { queryLabel } from '../common/plain-words'
import { useApp } from '../../state/app-state'
import { csvTitle } from '../../export/save'

/**
 * A query result as a compact table: `maxRows` rows at first, more on request, and how many more exist.
 * Numbers and words never break mid-token; a wide table scrolls sideways. Saves as CSV.
 */
export function ResultTable({ table, maxRows = 50, title }: { table: TableData; maxRows?: number; title?: string }): React.JSX.Element {
  const [limit, setLimit] = useState(maxRows)
  const save = useExporter()
  // The file is named after what was asked (the chat's title) and which query of it, not a bare query number.
  const { chats, activeChatId } = useApp()
  if (table.rows.length === 0) return <p className="muted small">The query returned no rows.</p>
  const shown = table.rows.slice(0, limit)
  const kept = table.rows.length - shown.length
  const hidden = Math.max(table.rowCount, table.rows.length) - shown.length
  const name = title ?? (table.queryId ? `Rows of ${queryLabel(table.queryId)}` : 'Query result')
  const chatTitle = chats.find((chat) => chat.id === activeChatId)?.title
  const fileTitle = title ?? csvTitle(chatTitle, table.queryId)
  return (
    <div className="result-table-block">
      <div className="result-table-wrap" tabIndex={0} role="region" aria-label={name}>
        <table className="result-table">
          <thead>
            <tr>
              {table.columns.map((column, index) => (
                <th key={`${column}-${index}`} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, rowIndex) => (
              <tr key={rowIndex}>
                {table.columns.map((_, cellIndex) => {
                  const cell = row[cellIndex]
                  return (
                    <td key={cellIndex} className={typeof cell === 'number' ? 'num' : cell === null || cell === undefined ? 'null' : undefined}>
                      {formatCell(cell)}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="table-foot">
        {hidden > 0 && (
          <span className="muted small table-more">
            … {formatNumber(hidden)} more rows {kept > 0 ? 'not shown' : 'not kept (the query returned more than Glassbox stores)'}
          </span>
        )}
        {kept > 0 && (
          <button className="link-button small" onClick={() => setLimit((value) => value + 200)}>
            Show {formatNumber(Math.min(200, kept))} more
          </button>
        )}
        <span className="spacer" />
        <button
          className="icon-button"
          title={`Save all ${formatNumber(table.rows.length)} kept rows as a CSV file for a spreadsheet`}
          onClick={() => void save(() => ({ suggestedName: fileNameFrom(fileTitle, 'csv'), content: tableToCsv(table), encoding: 'utf8', filter: { name: 'CSV', extensions: ['csv'] } }))}
        >
          Save CSV
        </button>
      </div>
    </div>
  )
}
