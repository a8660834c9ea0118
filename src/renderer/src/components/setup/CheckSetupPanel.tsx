import './setup.css'
import { useCallback, useEffect, useState } from 'react'
import type { DoctorReport } from '../../../../shared/api'
import { errorMessage } from '../../../../shared/error-message'
import { useApp } from '../../state/app-state'

// `glassbox doctor` in the app: the project, what it asks beyond its folder (approved or not), each database,
// each MCP server, the model server and its window for this project, tools, output cap, exact counts and the
// store, each ✓ or ✗ with what to do. Checking asks for nothing: approving stays with the trust dialog.

const SYMBOL = { pass: '✓', fail: '✗', warn: '!' } as const
const STATUS_LABEL = { pass: 'OK', fail: 'Problem', warn: 'Note' } as const

/** `onReviewTrust` opens the trust dialog, where what the project asks is approved. */
export function CheckSetupPanel({ onReviewTrust }: { onReviewTrust?: () => void } = {}): React.JSX.Element {
  const { api } = useApp()
  const [report, setReport] = useState<DoctorReport | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [running, setRunning] = useState(false)

  const run = useCallback(async () => {
    setRunning(true)
    setError(null)
    try {
      setReport(await api.checkSetup({}))
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setRunning(false)
    }
  }, [api])
  useEffect(() => void run(), [run])

  const failed = report?.lines.filter((line) => line.status === 'fail').length ?? 0
  const unapproved = report?.lines.some((line) => line.id === 'approval' && line.status === 'fail') ?? false
  return (
    <section className="panel" data-testid="check-setup-panel">
      <header className="panel-head">
        <h2>Check setup</h2>
        <p className="muted">Everything a question needs, tested now: the same checks as <code>glassbox doctor</code>.</p>
        <button className="button small" disabled={running} onClick={() => void run()} data-testid="check-setup-run">
          {running ? 'Checking…' : 'Check again'}
        </button>
      </header>
      {error && <p className="notice error">The checks could not run: {error}</p>}
      {running && !report && (
        <p className="muted">
          <span className="spinner small" /> Checking…
        </p>
      )}
      {report && (
        <>
          <p className={report.ok ? 'setup-summary ok' : 'setup-summary failed'} data-testid="check-setup-summary" aria-live="polite">
            {report.ok ? 'Everything Glassbox needs is in place.' : `${failed} problem${failed === 1 ? '' : 's'} to fix.`}
          </p>
          {unapproved && onReviewTrust && (
            <p>
              <button className="button small primary" onClick={onReviewTrust} data-testid="check-setup-review-trust">
                Review what this project asks…
              </button>
            </p>
          )}
          <ul className="setup-lines" data-testid="check-setup-lines">
            {report.lines.map((line, index) => (
              <li key={index} className={`setup-line ${line.status}`} data-status={line.status} data-check={line.id}>
                <span className="setup-symbol" aria-label={STATUS_LABEL[line.status]}>
                  {SYMBOL[line.status]}
                </span>
                <div>
                  <div>
                    <strong>{line.title}:</strong> {line.detail}
                  </div>
                  {line.fix && line.status !== 'pass' && <div className="setup-fix">Fix: {line.fix}</div>}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
