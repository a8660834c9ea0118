import { useEffect, useState } from 'react'
import { useApp } from '../../state/app-state'
import { AppearanceSettings } from './AppearanceSettings'
import { DataSources } from './DataSources'

// Endpoint and model (when not picked from the detected list), context window, data sources, memory.

export function SettingsPanel(): React.JSX.Element {
  const { settings, updateSettings, models, refreshModels } = useApp()
  const [endpoint, setEndpoint] = useState(settings?.endpoint ?? '')
  const [model, setModel] = useState(settings?.model ?? '')
  const [contextWindow, setContextWindow] = useState(settings?.contextWindow ? String(settings.contextWindow) : '')
  const [memoryModel, setMemoryModel] = useState(settings?.memoryModel ?? '')
  // Said beside Save: the form is in flight, saved (until the next edit), or as it was.
  const [saveState, setSaveState] = useState<'idle' | 'saving' | 'saved'>('idle')
  const edit = (set: (value: string) => void) => (value: string) => (set(value), setSaveState('idle'))
  useEffect(() => {
    setEndpoint(settings?.endpoint ?? '')
    setModel(settings?.model ?? '')
    setContextWindow(settings?.contextWindow ? String(settings.contextWindow) : '')
    setMemoryModel(settings?.memoryModel ?? '')
  }, [settings?.endpoint, settings?.model, settings?.contextWindow, settings?.memoryModel])
  if (!settings) return <section className="panel muted">Loading settings…</section>
  const windowNumber = Number(contextWindow)
  const windowValid = contextWindow === '' || (Number.isInteger(windowNumber) && windowNumber >= 512)

  return (
    <section className="panel" data-testid="settings-panel">
      <header className="panel-head">
        <h2>Settings</h2>
        <p className="muted">Glassbox only ever talks to the endpoint below; nothing leaves this machine.</p>
      </header>
      <form
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault()
          // Saving re-detects the servers, so the picker knows the endpoint and model just set.
          setSaveState('saving')
          void updateSettings({ endpoint: endpoint || undefined, model: model || undefined, contextWindow: contextWindow === '' ? null : windowNumber, memoryModel: memoryModel.trim() || null }).then((saved) => {
            setSaveState(saved ? 'saved' : 'idle')
            if (saved) void refreshModels()
          })
        }}
      >
        <label className="field">
          <span>Model server endpoint</span>
          <input className="input" id="settings-endpoint" data-testid="settings-endpoint" value={endpoint} onChange={(event) => edit(setEndpoint)(event.target.value)} placeholder="http://127.0.0.1:11434/v1" />
          <small className="muted">Ollama :11434/v1 · llama.cpp :8080/v1 · LM Studio :1234/v1 · vLLM :8000/v1 · Jan :1337/v1</small>
        </label>
        <label className="field">
          <span>Model</span>
          <input className="input" data-testid="settings-model" value={model} onChange={(event) => edit(setModel)(event.target.value)} placeholder="qwen2.5-coder:7b" list="known-models" />
          <datalist id="known-models">
            {(models ?? []).flatMap((server) => server.models.map((item) => <option key={`${server.baseUrl}-${item.id}`} value={item.id} />))}
          </datalist>
        </label>
        <label className="field">
          <span>Context window (tokens)</span>
          <input className="input" id="settings-context-window" data-testid="settings-context-window" value={contextWindow} onChange={(event) => edit(setContextWindow)(event.target.value.replace(/[^0-9]/g, ''))} placeholder="detected from the server" />
          {!windowValid && <small className="error-text">At least 512 tokens, or empty to use the detected window.</small>}
        </label>
        <label className="field">
          <span>Memory model</span>
          <input className="input" value={memoryModel} onChange={(event) => edit(setMemoryModel)(event.target.value)} placeholder="the chat model" list="known-models" />
          <small className="muted">Learns standing rules and facts after each answer; a small model on the same server is enough.</small>
        </label>
        <div className="row">
          <button className="button primary" type="submit" disabled={!windowValid || saveState === 'saving'}>
            {saveState === 'saving' ? 'Saving…' : 'Save'}
          </button>
          {saveState === 'saved' && (
            <span className="muted small" role="status" data-testid="settings-saved">
              Saved
            </span>
          )}
        </div>
      </form>
      <h3>Detected servers</h3>
      <ul className="server-list">
        {(models ?? []).map((server) => (
          <li key={server.baseUrl}>
            <span className={`status-dot ${server.running ? 'ok' : 'off'}`} />
            <strong>{server.label}</strong> <code>{server.baseUrl}</code>{' '}
            <span className="muted small">{server.running ? `${server.models.length} models` : (server.error ?? 'not running')}</span>
          </li>
        ))}
      </ul>
      <DataSources />
      <h3>Memory</h3>
      <label className="toggle">
        <input type="checkbox" checked={settings.memoryEnabled} onChange={(event) => void updateSettings({ memoryEnabled: event.target.checked })} />
        <span className="toggle-track" />
        <span>Use memory in this project (budget: {settings.memoryBudget.toLocaleString()} tokens; try others in the inspector’s Memory tab)</span>
      </label>
      <AppearanceSettings />
    </section>
  )
}
