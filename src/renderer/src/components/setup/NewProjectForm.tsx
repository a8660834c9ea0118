import './setup.css'
import { useState } from 'react'
import type { InitSummary } from '../../../../shared/api'
import { errorMessage } from '../../../../shared/error-message'
import { useApp } from '../../state/app-state'

// "New project…": a folder of data files (DuckDB, SQLite, CSV, Parquet, JSON) becomes a project, as
// `glassbox init` makes it — config, RULES.md, .naoignore, skills folder, an example test, sync — and opens.
// Files already there are kept; the summary says which.

export function NewProjectForm({ onDone }: { onDone(): void }): React.JSX.Element {
  const { api, transport, openProject } = useApp()
  const [path, setPath] = useState('')
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [summary, setSummary] = useState<InitSummary | null>(null)

  async function create(): Promise<void> {
    setBusy(true)
    setError(null)
    try {
      const result = await api.initProject({ path: path.trim(), ...(name.trim() ? { name: name.trim() } : {}) })
      setSummary(result.summary)
      await openProject(result.summary.root)
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  async function pick(): Promise<void> {
    const picked = await transport.pickFolder?.()
    if (picked) setPath(picked)
  }

  if (summary) {
    return (
      <div className="new-project" data-testid="new-project-summary">
        <div className="small">
          <strong>{summary.name}</strong>: {summary.databases.length === 0 ? 'no data file found' : summary.databases.map((database) => `${database.name} (${database.kind})`).join(', ')}
        </div>
        <ul className="small muted">
          {summary.written.map((file) => (
            <li key={file}>wrote {file}</li>
          ))}
          {summary.kept.map((file) => (
            <li key={file}>kept {file} (it was there)</li>
          ))}
          {summary.syncedTables !== null && <li>synced {summary.syncedTables} tables</li>}
          {summary.syncErrors.map((line) => (
            <li key={line} className="error">
              sync: {line}
            </li>
          ))}
          {summary.exampleSkipped && <li>no example test: {summary.exampleSkipped}</li>}
        </ul>
        <button className="button small" onClick={onDone}>
          Done
        </button>
      </div>
    )
  }
  return (
    <form className="new-project" onSubmit={(event) => (event.preventDefault(), void create())} data-testid="new-project-form">
      <span className="small">A folder with your data files (DuckDB, SQLite, CSV, Parquet, JSON):</span>
      {transport.pickFolder && (
        <button type="button" className="button small" onClick={() => void pick()}>
          Choose folder…
        </button>
      )}
      <input className="input" placeholder="/path/to/data" value={path} onChange={(event) => setPath(event.target.value)} aria-label="Data folder path" data-testid="new-project-path" />
      <input className="input" placeholder="Project name (default: the folder's)" value={name} onChange={(event) => setName(event.target.value)} aria-label="Project name" data-testid="new-project-name" />
      {error && <p className="notice error small">{error}</p>}
      <div className="row">
        <button className="button small primary" type="submit" disabled={!path.trim() || busy} data-testid="new-project-create">
          {busy ? 'Creating…' : 'Create project'}
        </button>
        <button className="button small ghost" type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  )
}
