import { useEffect, useState } from 'react'
import type { DataSourceView } from '../../../../shared/api'
import { useApp } from '../../state/app-state'

// The databases the agent can query in this project, and how each engine keeps them read-only.

export function DataSources(): React.JSX.Element {
  const { api, project } = useApp()
  const [sources, setSources] = useState<DataSourceView[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let current = true
    setError(null)
    api.listDataSources({}).then(
      (found) => current && setSources(found),
      (failure: unknown) => current && setError(failure instanceof Error ? failure.message : String(failure))
    )
    return () => void (current = false)
  }, [api, project?.root])
  return (
    <>
      <h3>Data sources</h3>
      {error && <p className="error-text">{error}</p>}
      {!error && sources === null && <p className="muted small">Loading…</p>}
      {sources?.length === 0 && <p className="muted small">Nothing to query: nao_config.yaml declares no database and the project holds no database or data file.</p>}
      <ul className="server-list" data-testid="data-sources">
        {(sources ?? []).map((source) => (
          <li key={source.id}>
            <strong>{source.id}</strong> <span className="muted small">{source.engine}</span> <code>{source.where}</code>
            <br />
            <span className="muted small">Read-only: {source.readOnly}.</span>
          </li>
        ))}
      </ul>
    </>
  )
}
