import type { EvaluationDetail } from '../../../../../shared/api'
import { hostOf, outcomeBadge, outcomeLabel, seconds } from './outcome'

// Cases × models: one cell per outcome (click to open it; its title is the verdict line), and per model its
// pass rate (overall and per case category), median time and median tokens per case, with a button to re-run the whole column.

export interface MatrixSelection {
  file: string
  column: number
}

export interface EvaluationMatrixProps {
  evaluation: EvaluationDetail
  selected: MatrixSelection | null
  running: boolean
  /** The cell being run now (file + column), if any. */
  live: MatrixSelection | null
  onSelect: (selection: MatrixSelection | null) => void
  onRerunColumn: (column: number) => void
}

export function EvaluationMatrix({ evaluation, selected, running, live, onSelect, onRerunColumn }: EvaluationMatrixProps): React.JSX.Element {
  const { matrix } = evaluation
  return (
    <div className="matrix-wrap">
      <table className="eval-matrix" data-testid="eval-matrix">
        <thead>
          <tr>
            <th scope="col">Case</th>
            {matrix.models.map((model, column) => (
              <th scope="col" key={`${model.endpoint}#${model.model}`} data-testid={`matrix-model-${column}`}>
                <div className="matrix-model">{model.model}</div>
                <div className="muted small" title={model.endpoint}>
                  {hostOf(model.endpoint)}
                </div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.cases.map((row) => (
            <tr key={row.file}>
              <th scope="row" title={row.file}>
                {row.name}
                {row.category && <div className="muted small">{row.category}</div>}
              </th>
              {row.cells.map((cell, column) => {
                const isSelected = selected?.file === row.file && selected.column === column
                const isLive = live?.file === row.file && live.column === column
                return (
                  <td key={column} className={isSelected ? 'selected' : undefined}>
                    {isLive ? (
                      <span className="spinner small" role="img" aria-label="running" />
                    ) : cell ? (
                      <button
                        className={`matrix-cell ${outcomeBadge(cell.outcome)}`}
                        title={`${cell.verdict ?? cell.outcome} · ${seconds(cell.ms)} · ${cell.tokens.toLocaleString()} tokens`}
                        aria-pressed={isSelected}
                        onClick={() => onSelect(isSelected ? null : { file: row.file, column })}
                        data-testid={`cell-${row.name}-${column}`}
                      >
                        {outcomeLabel(cell.outcome)}
                      </button>
                    ) : (
                      <span className="muted small">not run</span>
                    )}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Pass rate</th>
            {matrix.models.map((model, column) => (
              <td key={column} data-testid={`pass-rate-${column}`}>
                <strong>{Math.round(model.passRate * 100)}%</strong> <span className="muted small">({model.passed}/{model.total})</span>
              </td>
            ))}
          </tr>
          {(matrix.categories ?? []).map((row) => (
            <tr key={row.category} data-testid={`category-${row.category}`}>
              <th scope="row" className="small">
                Pass rate · {row.category}
              </th>
              {row.models.map((rate, column) => (
                <td key={column} className="small">
                  {rate.total === 0 ? '—' : `${Math.round(rate.passRate * 100)}% (${rate.passed}/${rate.total})`}
                </td>
              ))}
            </tr>
          ))}
          <tr>
            <th scope="row">Median time</th>
            {matrix.models.map((model, column) => (
              <td key={column}>{model.medianMs === null ? '—' : seconds(model.medianMs)}</td>
            ))}
          </tr>
          <tr>
            <th scope="row">Median tokens</th>
            {matrix.models.map((model, column) => (
              <td key={column}>{model.medianTokens === null ? '—' : Math.round(model.medianTokens).toLocaleString()}</td>
            ))}
          </tr>
          <tr>
            <th scope="row" />
            {matrix.models.map((model, column) => (
              <td key={column}>
                <button className="button small ghost" disabled={running} onClick={() => onRerunColumn(column)} data-testid={`rerun-column-${column}`}>
                  Re-run column
                </button>
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  )
}
