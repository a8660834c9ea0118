import { useEffect, useState } from 'react'
import type { TestCaseResult, TestReport } from '../../../../shared/api'
import { useApp } from '../../state/app-state'
import { ResultTable } from '../chat/ResultTable'
import { errorMessage } from '../../../../shared/error-message'

// The project's tests/*.yml: run them in test mode, see pass/fail as each finishes, open a case for both tables.

export function TestsPanel(): React.JSX.Element {
  const { api, project, onPush, notify } = useApp()
  const [running, setRunning] = useState(false)
  const [results, setResults] = useState<TestCaseResult[]>([])
  const [report, setReport] = useState<TestReport | null>(null)
  const [open, setOpen] = useState<string | null>(null)
  const tests = project?.tests ?? []

  useEffect(
    () =>
      onPush((event) => {
        if (event.channel === 'test-progress') setResults((list) => [...list.filter((item) => item.name !== event.result.name), event.result])
      }),
    [onPush]
  )

  async function run(names?: string[]): Promise<void> {
    setRunning(true)
    setReport(null)
    setResults((list) => (names ? list.filter((item) => !names.includes(item.name)) : []))
    try {
      const result = await api.runTests({ names })
      setReport(result)
      setResults((list) => [...list.filter((item) => !result.cases.some((done) => done.name === item.name)), ...result.cases])
    } catch (error) {
      notify('error', `Tests could not run: ${errorMessage(error)}`)
    } finally {
      setRunning(false)
    }
  }

  const byName = new Map(results.map((item) => [item.name, item]))
  const finished = tests.filter((name) => byName.has(name)).length
  return (
    <section className="panel" data-testid="tests-panel">
      <header className="panel-head">
        <h2>Tests</h2>
        <p className="muted">Each case in <code>tests/*.yml</code> asks its prompt in test mode and compares the agent’s last query result with the expected SQL.</p>
        <div className="row">
          <button className="button primary" onClick={() => void run()} disabled={running || tests.length === 0} data-testid="run-tests">
            {running ? (
              <>
                <span className="spinner small" /> Running {finished}/{tests.length}…
              </>
            ) : (
              tests.length === 1 ? 'Run the 1 test' : `Run all ${tests.length} tests`
            )}
          </button>
          {report && (
            <span className="test-summary">
              <span className="badge ok">{report.passed} passed</span> <span className="badge failed">{report.failed} failed</span> {report.errored > 0 && <span className="badge warn">{report.errored} errors</span>}
            </span>
          )}
        </div>
      </header>
      {tests.length === 0 && <p className="muted">This project has no tests. Add one as <code>tests/my_case.yml</code> with <code>name</code>, <code>prompt</code> and <code>sql</code>.</p>}
      <ul className="test-list">
        {tests.map((name) => {
          const result = byName.get(name)
          return (
            <li key={name} className={`test-case ${result?.status ?? 'pending'}`}>
              <button className="test-case-head" onClick={() => setOpen(open === name ? null : name)} disabled={!result}>
                <span className={`badge ${result ? (result.status === 'passed' ? 'ok' : result.status === 'failed' ? 'failed' : 'warn') : ''}`}>{result?.status ?? (running ? 'running' : 'not run')}</span>
                <span className="test-name">{name}</span>
                {result && (
                  <span className="muted small">
                    {(result.ms / 1000).toFixed(1)} s · {result.tokens.toLocaleString()} tokens
                  </span>
                )}
              </button>
              <button className="icon-button" onClick={() => void run([name])} disabled={running}>
                Run
              </button>
              {open === name && result && <TestDetail result={result} />}
            </li>
          )
        })}
      </ul>
    </section>
  )
}

function TestDetail({ result }: { result: TestCaseResult }): React.JSX.Element {
  const table = (rows: unknown[][] | null): React.JSX.Element =>
    rows ? <ResultTable table={{ queryId: null, columns: (rows[0] ?? []).map((_, index) => `col ${index + 1}`), rows, rowCount: rows.length }} maxRows={20} /> : <p className="muted small">none</p>
  return (
    <div className="test-detail">
      {result.message && <p className={result.status === 'passed' ? 'muted' : 'error-text'}>{result.message}</p>}
      {result.sql && <pre className="code-block">{result.sql}</pre>}
      <div className="test-tables">
        <div>
          <h4>Expected</h4>
          {table(result.expected)}
        </div>
        <div>
          <h4>Agent’s result</h4>
          {table(result.actual)}
        </div>
      </div>
      {result.runId && <p className="muted small">Run {result.runId}</p>}
    </div>
  )
}
