import { useApp } from '../../state/app-state'

// A failed run, said once where its answer would be: the reason and what to do, with a way to the setting
// that fixes it when there is one. What the model wrote before the failure stays above it.

const CONTEXT_WINDOW = /context window/i
const MODEL_SERVER = /model server|model picker|endpoint/i

export function RunError({ error }: { error: string | undefined }): React.JSX.Element {
  const { setView } = useApp()
  const text = error ?? 'The run failed, and no reason was recorded. Try again with Regenerate.'
  const openSettings = (field: string): void => {
    setView('settings')
    // The settings panel mounts on the next frame; then the field the message names gets focus.
    window.setTimeout(() => document.getElementById(field)?.focus(), 50)
  }
  return (
    <div className="notice error run-error" role="alert" data-testid="run-error">
      <span>{text}</span>
      {CONTEXT_WINDOW.test(text) ? (
        <button className="link-button" onClick={() => openSettings('settings-context-window')}>
          Open the context-window setting
        </button>
      ) : MODEL_SERVER.test(text) ? (
        <button className="link-button" onClick={() => openSettings('settings-endpoint')}>
          Open the model server settings
        </button>
      ) : null}
    </div>
  )
}
