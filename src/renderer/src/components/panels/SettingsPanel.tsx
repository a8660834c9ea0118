import './panels.css'
import { useEffect, useState } from 'react'
import { SERVER_KINDS, type EndpointSetting } from '../../../../shared/api'
import { plural } from '../../../../shared/format-count'
import { useApp } from '../../state/app-state'
import { AppearanceSettings } from './AppearanceSettings'
import { TrustSettings } from './TrustSettings'
import type { TrustState } from '../../state/use-trust'
import { DataSources } from './DataSources'

// Endpoint and model (when not picked from the detected list), context window, data sources, memory.

export function SettingsPanel({ trust }: { trust?: TrustState } = {}): React.JSX.Element {
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
      <ServerList />
      <h3>Detected servers</h3>
      <ul className="server-list">
        {(models ?? []).map((server) => (
          <li key={server.baseUrl} data-testid="server-status">
            <span className={`status-dot ${server.running ? 'ok' : 'off'}`} />
            <strong>{server.label}</strong> <code>{server.baseUrl}</code>{' '}
            <span className="muted small">{server.running ? plural(server.models.length, 'model') : (server.error ?? 'not running')}</span>
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
      {trust && <TrustSettings trust={trust} />}
      <AppearanceSettings />
    </section>
  )
}

const KIND_LABELS: Record<EndpointSetting['preset'], string> = {
  ollama: 'Ollama',
  'llama.cpp': 'llama.cpp',
  lmstudio: 'LM Studio',
  vllm: 'vLLM',
  jan: 'Jan',
  custom: 'Other'
}

/**
 * The model servers the user added, beside the presets Glassbox probes anyway: each with its kind (which
 * endpoints tell its window), address and optional API key. The picker and the Tests panel list all of them.
 */
function ServerList(): React.JSX.Element {
  const { settings, updateSettings, refreshModels } = useApp()
  const saved = settings?.endpoints ?? []
  const [rows, setRows] = useState<EndpointSetting[]>(saved)
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle')
  const savedKey = JSON.stringify(saved)
  useEffect(() => setRows(JSON.parse(savedKey) as EndpointSetting[]), [savedKey])
  const change = (index: number, patch: Partial<EndpointSetting>): void => {
    setRows((all) => all.map((row, at) => (at === index ? { ...row, ...patch } : row)))
    setState('idle')
  }
  const valid = rows.every((row) => /^https?:\/\/\S+$/.test(row.url.trim()))
  return (
    <form
      className="settings-form server-settings"
      data-testid="server-settings"
      onSubmit={(event) => {
        event.preventDefault()
        setState('saving')
        const endpoints = rows.map((row) => ({ preset: row.preset, url: row.url.trim(), ...(row.apiKey?.trim() ? { apiKey: row.apiKey.trim() } : {}) }))
        void updateSettings({ endpoints }).then((done) => {
          setState(done ? 'saved' : 'idle')
          if (done) void refreshModels()
        })
      }}
    >
      <h3>Model servers</h3>
      <p className="muted small">Servers on other ports or machines, used side by side with the ones Glassbox finds on their default ports. A key is sent only to its own server.</p>
      {rows.length === 0 && <p className="muted small">None added.</p>}
      {rows.map((row, index) => (
        <div className="server-row" key={index} data-testid="server-row">
          <select aria-label="Server kind" value={row.preset} onChange={(event) => change(index, { preset: SERVER_KINDS.find((kind) => kind === event.target.value) ?? 'custom' })}>
            {SERVER_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
          <input className="input" aria-label="Server address" value={row.url} placeholder="http://127.0.0.1:8081/v1" onChange={(event) => change(index, { url: event.target.value })} data-testid="server-url" />
          <input className="input" aria-label="API key (optional)" type="password" autoComplete="off" value={row.apiKey ?? ''} placeholder="API key (optional)" onChange={(event) => change(index, { apiKey: event.target.value })} />
          <button type="button" className="button small ghost" onClick={() => (setRows((all) => all.filter((_, at) => at !== index)), setState('idle'))} aria-label={`Remove ${row.url || 'this server'}`}>
            Remove
          </button>
        </div>
      ))}
      <div className="row">
        <button type="button" className="button small" onClick={() => (setRows((all) => [...all, { preset: 'llama.cpp', url: '' }]), setState('idle'))} data-testid="add-server">
          Add a server
        </button>
        <button className="button primary small" type="submit" disabled={!valid || state === 'saving'} data-testid="save-servers">
          {state === 'saving' ? 'Saving…' : 'Use these servers'}
        </button>
        {!valid && <small className="error-text">Each address starts with http:// or https://</small>}
        {state === 'saved' && (
          <span className="muted small" role="status">
            Saved
          </span>
        )}
      </div>
    </form>
  )
}
