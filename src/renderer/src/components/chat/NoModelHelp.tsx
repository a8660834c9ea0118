import { useApp } from '../../state/app-state'

/** Shown when no local model server answers: how to start one, then detect again. */
export function NoModelHelp(): React.JSX.Element {
  const { refreshModels, modelsLoading, setView } = useApp()
  return (
    <div className="no-model" data-testid="no-model">
      <strong>No local model server is running.</strong> Glassbox talks only to a model on this machine. Start one, then detect again:
      <ul>
        <li>
          Ollama: <code>OLLAMA_CONTEXT_LENGTH=16384 ollama serve</code> then <code>ollama pull qwen2.5-coder:7b</code>
        </li>
        <li>
          llama.cpp: <code>llama-server -m model.gguf --port 8080 --jinja -c 16384</code>
        </li>
        <li>LM Studio, vLLM or Jan: start its local server, or set a custom endpoint in Settings.</li>
      </ul>
      <div className="row">
        <button className="button small" onClick={() => void refreshModels()} disabled={modelsLoading}>
          {modelsLoading ? 'Detecting…' : 'Detect again'}
        </button>
        <button className="button small ghost" onClick={() => setView('settings')}>
          Open settings
        </button>
      </div>
    </div>
  )
}
