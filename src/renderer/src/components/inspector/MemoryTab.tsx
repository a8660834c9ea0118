import { useEffect, useState } from 'react'
import type { MemoryView } from '../../../../shared/api'
import type { MemoryItem, PromptPreview } from '../../../../shared/prompt'
import { useApp } from '../../state/app-state'
import { formatTokens } from './format'
import { errorMessage } from '../../../../shared/error-message'

// Which memories made it into the prompt and which were trimmed, with the reason, and which are switched
// off. The slider tries another memory budget; the inspector previews it in every tab until reset.

const CATEGORY_LABELS = { global_rule: 'Rule', personal_fact: 'Profile' } as const

interface Props {
  preview: PromptPreview
  /** The budget the preview uses: the saved one, or the one being tried. */
  budget: number
  onBudget(budget: number): void
  loading: boolean
}

/**
 * The slider spans what the memories need (with room above), so each step changes something visible. It is
 * scaled on the saved budget, never on the one being tried: the scale must not change under the pointer.
 */
export function sliderRange(preview: PromptPreview, savedBudget: number): { max: number; step: number } {
  const needed = [...preview.memory.included, ...preview.memory.dropped].reduce((sum, item) => sum + item.tokens, 0)
  const top = Math.max(50, Math.ceil(needed * 1.25), savedBudget)
  const step = Math.max(1, Math.round(top / 200))
  return { max: Math.ceil(top / step) * step, step }
}

export function MemoryTab({ preview, budget, onBudget, loading }: Props): React.JSX.Element {
  const { settings, updateSettings, setView } = useApp()
  const memories = useMemories()
  const saved = settings?.memoryBudget ?? 1000
  const trying = budget !== saved
  const { max, step } = sliderRange(preview, saved)
  const usedTokens = preview.memory.included.reduce((sum, item) => sum + item.tokens, 0)
  const disabled = memories.filter((memory) => !memory.enabled)
  // Memories are trimmed in the local tokenizer's counts, so the budget and these figures share that count; the
  // server's tokenizer differs by the scale the request's budget shows.
  const scale = preview.budget?.tokenScale
  const estimate = scale ? `estimated; the server counts about ×${scale.toFixed(2)}` : 'estimated'

  if (settings && !settings.memoryEnabled) {
    return (
      <div className="notice">
        Memory is off for this project, so no memories are sent.{' '}
        <button className="link-button" onClick={() => void updateSettings({ memoryEnabled: true })}>
          Turn it on
        </button>
      </div>
    )
  }
  return (
    <div className="memory-tab">
      <label className="slider-row">
        <span>Memory budget</span>
        <input type="range" min={0} max={max} step={step} value={Math.min(budget, max)} onChange={(event) => onBudget(Number(event.target.value))} aria-label="Memory budget in tokens" data-testid="memory-budget" />
        <span className="slider-value">{formatTokens(budget)} tokens</span>
      </label>
      <div className="row small memory-tab-status">
        <span className="muted">
          {preview.memory.included.length} included ({formatTokens(usedTokens)} tokens, {estimate}) · {preview.memory.dropped.length} trimmed
          {trying && ' · preview, not saved'}
        </span>
        {trying && loading && <span className="spinner small" />}
        <span className="spacer" />
        {trying && (
          <>
            <button className="button small" onClick={() => void updateSettings({ memoryBudget: budget })}>
              Use as default
            </button>
            <button className="button small ghost" onClick={() => onBudget(saved)}>
              Reset
            </button>
          </>
        )}
      </div>
      <h4>Sent to the model</h4>
      <MemoryList items={preview.memory.included} empty="No memory fits the budget, or none exists yet." testId="memory-included" />
      <h4>Trimmed</h4>
      {preview.memory.dropped.length === 0 ? (
        <p className="muted small">Nothing trimmed.</p>
      ) : (
        <ul className="memory-list dropped" data-testid="memory-dropped">
          {preview.memory.dropped.map((item) => (
            <li key={item.id}>
              <MemoryLine item={item} />
              <div className="memory-reason">{item.reason}</div>
            </li>
          ))}
        </ul>
      )}
      <DisabledMemories memories={disabled} />
      <button className="link-button small" onClick={() => setView('memory')}>
        Manage memories →
      </button>
    </div>
  )
}

/** Switched-off memories: never sent, listed so the inspector accounts for every memory the manager shows. */
export function DisabledMemories({ memories }: { memories: MemoryView[] }): React.JSX.Element | null {
  if (memories.length === 0) return null
  return (
    <>
      <h4>Disabled</h4>
      <ul className="memory-list memory-notsent" data-testid="memory-disabled">
        {memories.map((memory) => (
          <li key={memory.id}>
            <div className="memory-line">
              <span className={`badge category-${memory.category}`}>{CATEGORY_LABELS[memory.category]}</span>
              <span className="memory-content">{memory.content}</span>
            </div>
            <div className="memory-reason">disabled — not sent until you enable it in the memory manager</div>
          </li>
        ))}
      </ul>
    </>
  )
}

/** The project's memories as the manager lists them, re-read whenever the prompt may have changed. */
export function useMemories(): MemoryView[] {
  const { api, revision, project } = useApp()
  const [memories, setMemories] = useState<MemoryView[]>([])
  useEffect(() => {
    if (!project) return
    let cancelled = false
    api
      .listMemories({})
      .then((list) => !cancelled && setMemories(list))
      .catch((error: unknown) => console.warn(`Could not list memories: ${errorMessage(error)}`))
    return () => {
      cancelled = true
    }
  }, [api, revision, project])
  return memories
}

function MemoryList({ items, empty, testId }: { items: MemoryItem[]; empty: string; testId: string }): React.JSX.Element {
  if (items.length === 0) return <p className="muted small">{empty}</p>
  return (
    <ul className="memory-list" data-testid={testId}>
      {items.map((item) => (
        <li key={item.id}>
          <MemoryLine item={item} />
        </li>
      ))}
    </ul>
  )
}

function MemoryLine({ item }: { item: MemoryItem }): React.JSX.Element {
  return (
    <div className="memory-line">
      <span className={`badge category-${item.category}`}>{CATEGORY_LABELS[item.category]}</span>
      <span className="memory-content">{item.content}</span>
      <span className="muted small">{formatTokens(item.tokens)} t</span>
    </div>
  )
}
