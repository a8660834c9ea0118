import { useMemo } from 'react'
import { useApp } from '../../state/app-state'
import { modelName } from '../../state/model-name'

// Model picker (detected local servers), test mode, channel preview, timezone, and Sync.

const CHANNELS = ['slack', 'whatsapp', 'teams', 'telegram']

function timezones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return all.includes(current) ? all : [current, ...all]
}

/** `extra`: controls other features add at the end (the project-trust indicator). */
export function TopBar({ extra }: { extra?: React.ReactNode } = {}): React.JSX.Element {
  const { settings, models, modelsLoading, refreshModels, updateSettings, project, sync, runSync, cancelSync } = useApp()
  const zones = useMemo(() => timezones(settings?.timezone ?? 'UTC'), [settings?.timezone])
  const running = (models ?? []).filter((server) => server.running)
  const selectedValue = settings?.endpoint && settings.model ? `${settings.endpoint}|${settings.model}` : ''
  const knownSelection = running.some((server) => server.baseUrl === settings?.endpoint && server.models.some((model) => model.id === settings?.model))

  return (
    <header className="topbar">
      <div className="brand">
        <span className="brand-mark" aria-hidden>
          ◇
        </span>{' '}
        Glassbox
      </div>
      <div className="topbar-controls">
        <label className="field inline model-field">
          <span>Model</span>
          <select
            data-testid="model-picker"
            title={settings?.model ?? undefined}
            value={selectedValue}
            onChange={(event) => {
              const [endpoint, ...rest] = event.target.value.split('|')
              if (endpoint) void updateSettings({ endpoint, model: rest.join('|') })
            }}
          >
            {!knownSelection && <option value={selectedValue}>{settings?.model ? `${modelName(settings.model)} (not detected)` : models === null ? 'Detecting…' : running.length > 0 ? 'Automatic (first detected model)' : 'No model server found'}</option>}
            {running.map((server) => (
              <optgroup key={server.baseUrl} label={`${server.label} · ${server.baseUrl}`}>
                {server.models.map((model) => (
                  <option
                    key={model.id}
                    value={`${server.baseUrl}|${model.id}`}
                    title={`${model.id}\n${model.contextWindow ? `Context window ${model.contextWindow.toLocaleString('en-US')} tokens, from ${model.contextSource ?? 'the server'}` : 'Context window unknown — set it in settings'}`}
                  >
                    {modelName(model.id)}
                    {model.contextWindow ? ` · ${Math.round(model.contextWindow / 1024)}k ctx` : ''}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <button className="icon-button" title="Detect model servers again" onClick={() => void refreshModels()} disabled={modelsLoading}>
            {modelsLoading ? <span className="spinner small" /> : '↻'}
          </button>
        </label>
        <label className="toggle" title="Test mode: no clarification questions, the run never waits for you">
          <input type="checkbox" data-testid="test-mode" checked={settings?.testMode ?? false} onChange={(event) => void updateSettings({ testMode: event.target.checked })} />
          <span className="toggle-track" />
          <span>Test mode</span>
        </label>
        <label className="field inline">
          <span>Channel</span>
          <select data-testid="channel" value={settings?.channel ?? ''} onChange={(event) => void updateSettings({ channel: event.target.value || null })}>
            <option value="">App (no channel)</option>
            {CHANNELS.map((channel) => (
              <option key={channel} value={channel}>
                {channel}
              </option>
            ))}
          </select>
        </label>
        <label className="field inline">
          <span>Timezone</span>
          <select data-testid="timezone" value={settings?.timezone ?? 'UTC'} onChange={(event) => void updateSettings({ timezone: event.target.value })}>
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </label>
        <button className="button small" onClick={() => void runSync()} disabled={!project || sync.running} data-testid="sync" title="Re-read the database schemas into databases/">
          {sync.running ? (
            <>
              <span className="spinner small" /> Syncing {sync.progress ? `${sync.progress.done}/${sync.progress.total}` : '…'}
            </>
          ) : (
            'Sync'
          )}
        </button>
        {sync.running && (
          <button className="button small" onClick={() => void cancelSync()} data-testid="sync-cancel" title="Stop the sync; tables already written stay">
            Stop sync
          </button>
        )}
        {extra}
      </div>
      {sync.running && sync.progress && (
        <div className="topbar-progress" style={{ width: `${(sync.progress.done / Math.max(1, sync.progress.total)) * 100}%` }} title={sync.progress.table} />
      )}
    </header>
  )
}
