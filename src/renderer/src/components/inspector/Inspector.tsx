import './inspector.css'
import { useEffect, useMemo, useState } from 'react'
import type { ApiInputs, RunRequestView } from '../../../../shared/api'
import type { PromptPreview } from '../../../../shared/prompt'
import { useApp } from '../../state/app-state'
import { messageTextOf, type Draft } from '../../state/draft'
import { usePromptPreview } from '../../state/use-prompt-preview'
import { DiagnosticsTab } from './DiagnosticsTab'
import { describeRunOutcome } from './run-outcome'
import { estimateNote } from '../../../../shared/section-tokens'
import { formatTokens, percent } from './format'
import type { RunPlace } from '../../state/versions'
import { DisabledMemories, MemoryTab, useMemories } from './MemoryTab'
import { RequestTab } from './RequestTab'
import { OverrideBadge, SystemTab } from './SystemTab'
import { TestModeDiffTab } from './TestModeDiffTab'
import { UserTab } from './UserTab'
import { errorMessage } from '../../../../shared/error-message'

// The prompt inspector: what the next message would send (live, as the user types), or exactly what an
// earlier run sent. Tabs: System, User, Request, Memory, Diagnostics, Test mode.

type Tab = 'system' | 'user' | 'request' | 'memory' | 'diagnostics' | 'diff'
const TABS: { id: Tab; label: string }[] = [
  { id: 'system', label: 'System' },
  { id: 'user', label: 'User' },
  { id: 'request', label: 'Request' },
  { id: 'memory', label: 'Memory' },
  { id: 'diagnostics', label: 'Diagnostics' },
  { id: 'diff', label: 'Test mode' }
]

interface Props {
  chatId: string | null
  draft: Draft
  runId: string | null
  /** Where the inspected run's answer is (chat, version); absent for a run opened from elsewhere. */
  runPlace?: RunPlace
  onLeaveRun(): void
  onHide(): void
}

export function Inspector({ chatId, draft, runId, runPlace, onLeaveRun, onHide }: Props): React.JSX.Element {
  const { project, settings, updateSettings } = useApp()
  const [tab, setTab] = useState<Tab>('system')
  // A memory budget being tried: every tab previews with it until it is reset or saved.
  const [triedBudget, setTriedBudget] = useState<number | null>(null)
  const savedBudget = settings?.memoryBudget ?? 1000
  const memoryBudget = triedBudget !== null && triedBudget !== savedBudget ? triedBudget : null
  const input = useMemo<ApiInputs['previewPrompt']>(
    () => ({
      chatId: chatId ?? undefined,
      question: messageTextOf(draft),
      skill: draft.skill ?? undefined,
      tables: draft.tables.length ? draft.tables : undefined,
      attachments: draft.attachments.length ? draft.attachments : undefined,
      ...(memoryBudget !== null ? { memoryBudget } : {})
    }),
    [chatId, draft, memoryBudget]
  )
  // Always assembled, also while a stored run is shown: a problem with the next request is never hidden.
  const live = usePromptPreview(input, 120, true)
  const run = useRunPrompt(runId)
  const preview = runId ? run.preview : live.preview
  const loading = runId ? run.loading : live.loading
  const error = runId ? run.error : live.error

  const diagnostics = useMemo(() => {
    const all = [...(preview?.diagnostics ?? []), ...(project?.diagnostics ?? [])]
    return all.filter((item, index) => all.findIndex((other) => other.file === item.file && other.problem === item.problem) === index)
  }, [preview?.diagnostics, project?.diagnostics])

  return (
    <aside className="inspector" data-testid="inspector">
      <header className="inspector-head">
        <div className="inspector-title">
          <h2>Prompt inspector</h2>
          {loading && <span className="spinner small" role="img" aria-label="updating" />}
          <span className="spacer" />
          <button className="icon-button" onClick={onHide} title="Hide the inspector">
            Hide ⟩
          </button>
        </div>
        {runId ? (
          <div className="inspector-source run" data-testid="inspector-source">
            <strong>Stored run.</strong> {run.unsent ? 'Nothing was sent for the' : 'Exactly what was sent for the'}{' '}
            <span className="technical-id" title={`run ${runId}`}>
              answer
            </span>
            {runPlace ? ` in “${runPlace.chatTitle}”` : ''}
            {runPlace?.version ? `, version ${runPlace.version.index + 1} of ${runPlace.version.count}` : ''}
            {run.startedAt ? `, sent ${new Date(run.startedAt).toLocaleString()}` : ''}
            {run.requests && run.requests.length > 0 ? ` (${run.requests.length === 1 ? '1 round' : `${run.requests.length} rounds`})` : ''}.{' '}
            <button className="link-button" onClick={onLeaveRun}>
              Back to live preview
            </button>
            {run.outcome && <div className="run-outcome" data-testid="run-outcome">{run.outcome}</div>}
          </div>
        ) : (
          <div className="inspector-source" data-testid="inspector-source">
            <strong>Live preview</strong>: what your next message would send{messageTextOf(draft) ? '' : ' (type to preview)'}.
          </div>
        )}
        {runId && live.preview && <NextRequestWarning preview={live.preview} onShow={onLeaveRun} />}
        {preview && <Summary preview={preview} />}
        {!runId && memoryBudget !== null && tab !== 'memory' && (
          <div className="notice small memory-trial" data-testid="memory-trial">
            Previewing a memory budget of {formatTokens(memoryBudget)} tokens in every tab (saved: {formatTokens(savedBudget)}).{' '}
            <button className="link-button" onClick={() => void updateSettings({ memoryBudget }).then(() => setTriedBudget(null))}>
              Use as default
            </button>{' '}
            <button className="link-button" onClick={() => setTriedBudget(null)}>
              Reset
            </button>
          </div>
        )}
      </header>
      <nav className="tabs" role="tablist">
        {TABS.filter((item) => !(runId && item.id === 'diff')).map((item) => (
          <button key={item.id} role="tab" aria-selected={tab === item.id} className={tab === item.id ? 'active' : ''} onClick={() => setTab(item.id)} data-tab={item.id}>
            {item.label}
            {item.id === 'diagnostics' && diagnostics.length > 0 && <span className="tab-count">{diagnostics.length}</span>}
            {item.id === 'memory' && preview && preview.memory.dropped.length > 0 && <span className="tab-count warn">{preview.memory.dropped.length}</span>}
          </button>
        ))}
      </nav>
      <div className={`inspector-body tab-${tab}`} key={tab} data-testid={`inspector-${tab}`}>
        {error && <p className="notice error">{runId ? error : `Could not assemble the prompt: ${error}`}</p>}
        {!preview && !error && (
          <p className="muted">
            <span className="spinner small" /> Assembling the prompt…
          </p>
        )}
        {preview && tab === 'system' && <SystemTab preview={preview} />}
        {preview && tab === 'user' && <UserTab preview={preview} draft={runId ? null : draft} />}
        {preview && tab === 'request' && <RequestTab preview={preview} requests={runId ? run.requests : undefined} />}
        {preview && tab === 'memory' &&
          (runId ? (
            <MemorySnapshot preview={preview} startedAt={run.startedAt} />
          ) : (
            <MemoryTab preview={preview} budget={memoryBudget ?? savedBudget} onBudget={(value) => setTriedBudget(value)} loading={live.loading} />
          ))}
        {preview && tab === 'diagnostics' && <DiagnosticsTab diagnostics={diagnostics} />}
        {tab === 'diff' && !runId && <TestModeDiffTab input={input} />}
      </div>
    </aside>
  )
}

/** Shown over a stored run: the next message would not fit, which the run's own numbers would hide. */
function NextRequestWarning({ preview, onShow }: { preview: PromptPreview; onShow(): void }): React.JSX.Element | null {
  const budget = preview.budget
  if (!budget) return null
  const used = budget.parts.reduce((sum, part) => sum + part.tokens, 0)
  if (used <= budget.contextWindow) return null
  return (
    <div className="notice warn small" data-testid="next-request-warning">
      Your next message: {formatTokens(used)} of {formatTokens(budget.contextWindow)} tokens ({percent(used, budget.contextWindow)}) — over the window, it would not be sent.{' '}
      <button className="link-button" onClick={onShow}>
        Show the live preview
      </button>
    </div>
  )
}

function Summary({ preview }: { preview: PromptPreview }): React.JSX.Element {
  const budget = preview.budget
  const used = budget ? budget.parts.reduce((sum, part) => sum + part.tokens, 0) : null
  return (
    <div className="inspector-summary">
      <OverrideBadge mode={preview.overrideMode} />
      {budget && used !== null && (
        <span className={used > budget.contextWindow ? 'over' : ''} title={`Tokens ${estimateNote(budget.tokenScale)}`}>
          {formatTokens(used)} / {formatTokens(budget.contextWindow)} tokens · {percent(used, budget.contextWindow)} · {budget.tokenScale ? `estimated ×${budget.tokenScale.toFixed(2)}` : 'estimated'}
        </span>
      )}
      {budget && budget.trimmed.length > 0 && <span className="badge warn">{budget.trimmed.length} trimmed</span>}
      {budget?.contextSource?.startsWith('default') && (
        <span className="badge warn" title={`The server did not say its context window; ${formatTokens(budget.contextWindow)} tokens is a guess. Set it in Settings.`}>
          window unknown
        </span>
      )}
    </div>
  )
}

function MemorySnapshot({ preview, startedAt }: { preview: PromptPreview; startedAt: string | undefined }): React.JSX.Element {
  const memories = useMemories()
  const sent = new Set(preview.memory.included.map((item) => item.id))
  const later = startedAt ? memories.filter((memory) => memory.enabled && memory.supersededBy === null && !sent.has(memory.id) && memory.createdAt >= startedAt) : []
  const disabled = memories.filter((memory) => !memory.enabled)
  return (
    <div className="memory-tab">
      <h4>Sent with this run</h4>
      {preview.memory.included.length === 0 ? (
        <p className="muted small">No memory was sent with this run.</p>
      ) : (
        <ul className="memory-list" data-testid="memory-included">
          {preview.memory.included.map((item) => (
            <li key={item.id}>{item.content}</li>
          ))}
        </ul>
      )}
      <h4>Trimmed</h4>
      {preview.memory.dropped.length === 0 ? (
        <p className="muted small">Nothing trimmed.</p>
      ) : (
        <ul className="memory-list dropped">
          {preview.memory.dropped.map((item) => (
            <li key={item.id}>
              {item.content} <div className="memory-reason">{item.reason}</div>
            </li>
          ))}
        </ul>
      )}
      {later.length > 0 && (
        <>
          <h4>Not in this prompt</h4>
          <ul className="memory-list memory-notsent" data-testid="memory-learned-after">
            {later.map((memory) => (
              <li key={memory.id}>
                {memory.content} <div className="memory-reason">learned after this prompt was built — applies from the next message</div>
              </li>
            ))}
          </ul>
        </>
      )}
      <DisabledMemories memories={disabled} />
    </div>
  )
}

interface RunView {
  preview: PromptPreview | null
  /** How the run ended and what the server counted, in words. */
  outcome: string | null
  requests: RunRequestView[] | undefined
  startedAt: string | undefined
  /** The run ended before any request went out (refused before sending): there is nothing to show. */
  unsent?: boolean
  loading: boolean
  error: string | null
}

function useRunPrompt(runId: string | null): RunView {
  const { api, revision } = useApp()
  const [state, setState] = useState<RunView>({ preview: null, outcome: null, requests: undefined, startedAt: undefined, loading: false, error: null })
  useEffect(() => {
    if (!runId) return
    let cancelled = false
    setState((previous) => ({ ...previous, loading: true, error: null }))
    api
      .getRun({ runId })
      .then(
        (run) =>
          !cancelled &&
          setState({
            preview: run.prompt,
            outcome: describeRunOutcome(run, run.prompt?.budget ?? null),
            requests: run.requests,
            startedAt: run.startedAt,
            unsent: !run.prompt && (run.requests ?? []).length === 0 && run.status !== 'running',
            loading: false,
            error: run.prompt ? null : run.status === 'running' ? 'This run has no recorded prompt yet.' : 'Nothing was sent for this answer: it was refused before sending (the reason is under the answer).'
          })
      )
      .catch((error: unknown) => !cancelled && setState({ preview: null, outcome: null, requests: undefined, startedAt: undefined, loading: false, error: errorMessage(error) }))
    return () => {
      cancelled = true
    }
    // revision: a run still going adds requests; re-read when it ends.
  }, [api, runId, revision])
  return state
}
