import type { EvaluationCaseResult } from '../../../../../shared/api'
import { ResultTable } from '../../chat/ResultTable'
import { outcomeBadge, seconds } from './outcome'

// One case for one model: why it passed or not (the verdict line naming the deciding rule), both tables and
// the databases they came from, the SQL, the figures, the run to inspect,
// and — when it did not pass — the context audit: what the agent read and which table metadata it skipped.

export interface CaseDetailProps {
  result: EvaluationCaseResult
  model: string
  running: boolean
  onInspect: (runId: string) => void
  onRerun: () => void
}

export function CaseDetail({ result, model, running, onInspect, onRerun }: CaseDetailProps): React.JSX.Element {
  const table = (rows: unknown[][] | null): React.JSX.Element =>
    rows ? <ResultTable table={{ queryId: null, columns: (rows[0] ?? []).map((_, index) => `col ${index + 1}`), rows, rowCount: rows.length }} maxRows={20} /> : <p className="muted small">none</p>
  return (
    <div className="test-detail" data-testid="case-detail">
      <div className="row case-detail-head">
        <span className={outcomeBadge(result.outcome)}>{result.outcome}</span>
        <strong className="test-name">{result.name}</strong>
        <span className="muted small">{model}</span>
        {result.runId && (
          <button className="button small secondary" onClick={() => result.runId && onInspect(result.runId)} data-testid="inspect-case-run">
            Open run in inspector
          </button>
        )}
        <button className="button small ghost" onClick={onRerun} disabled={running} data-testid="rerun-cell">
          Re-run this cell
        </button>
      </div>
      {result.verdict ? (
        <p className={result.status === 'passed' ? 'muted' : 'error-text'} data-testid="case-verdict">
          {result.verdict}
        </p>
      ) : (
        result.message && <p className={result.status === 'passed' ? 'muted' : 'error-text'}>{result.message}</p>
      )}
      <p className="muted small case-figures">
        {seconds(result.ms)} total · first token {result.firstTokenMs === null ? '—' : seconds(result.firstTokenMs)} · {result.rounds} tool {result.rounds === 1 ? 'round' : 'rounds'} ·{' '}
        {result.inputTokens.toLocaleString()} tokens in / {result.outputTokens.toLocaleString()} out · <code>{result.file}</code>
        {result.category && <> · category {result.category}</>}
      </p>
      {result.sql ? <pre className="code-block">{result.sql}</pre> : <p className="muted small">The agent ran no SQL.</p>}
      <div className="test-tables">
        <div>
          <h4>
            Expected{result.matchedSql && result.matchedSql > 1 ? ` (acceptable SQL ${result.matchedSql})` : ''}
            {result.databases?.expected && <span className="muted small"> on {result.databases.expected}</span>}
          </h4>
          {table(result.expected)}
        </div>
        <div>
          <h4>
            Agent’s result{result.databases?.actual && <span className="muted small"> on {result.databases.actual}</span>}
          </h4>
          {table(result.actual)}
        </div>
      </div>
      {result.status !== 'passed' && result.audit && (
        <div className="context-audit" data-testid="context-audit">
          <h4>Context audit</h4>
          <p className="small">
            Files read: {result.audit.filesRead.length === 0 ? <span className="muted">none</span> : codeList(result.audit.filesRead)}
          </p>
          {result.audit.tables.length === 0 ? (
            <p className="muted small">The final SQL touched no table Glassbox could name.</p>
          ) : (
            <ul className="audit-tables">
              {result.audit.tables.map((table) => (
                <li key={table.table}>
                  <code>{table.table}</code>{' '}
                  {table.dir === null ? (
                    <span className="muted">has no metadata folder under databases/ — run Sync.</span>
                  ) : table.unread.length === 0 ? (
                    <span className="muted">its metadata was read.</span>
                  ) : (
                    <span>
                      never read: {codeList(table.unread)} — add a pointer to it in RULES.md or the table’s description.
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  )
}

function codeList(items: string[]): React.JSX.Element[] {
  return items.map((item, index) => (
    <span key={item}>
      {index > 0 && ', '}
      <code>{item}</code>
    </span>
  ))
}
