import { useEffect, useState } from 'react'
import type { ApiInputs } from '../../../../shared/api'
import type { MemoryItem, PromptPreview } from '../../../../shared/prompt'
import { useApp } from '../../state/app-state'
import { usePromptPreview } from '../../state/use-prompt-preview'
import { formatTokens } from './format'

// Which memories made it into the prompt and which were trimmed, with the reason. The slider previews
// another memory budget (nothing is saved until "Use as default").

const CATEGORY_LABELS = { global_rule: 'Rule', personal_fact: 'Profile' } as const

export function MemoryTab({ preview, input }: { preview: PromptPreview; input: ApiInputs['previewPrompt'] }): React.JSX.Element {
  const { settings, updateSettings, setView } = useApp()
  const saved = settings?.memoryBudget ?? 1000
  const [budget, setBudget] = useState(saved)
  useEffect(() => setBudget(saved), [saved])
  const trying = budget !== saved
  const tried = usePromptPreview(trying ? { ...input, memoryBudget: budget } : null, 80)
  const shown = trying && tried.preview ? tried.preview : preview
  const max = Math.max(4000, saved * 2)
  const usedTokens = shown.memory.included.reduce((sum, item) => sum + item.tokens, 0)

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
        <input type="range" min={0} max={max} step={10} value={budget} onChange={(event) => setBudget(Number(event.target.value))} aria-label="Memory budget in tokens" data-testid="memory-budget" />
        <span className="slider-value">{formatTokens(budget)} tokens</span>
      </label>
      <div className="row small memory-tab-status">
        <span className="muted">
          {shown.memory.included.length} included ({formatTokens(usedTokens)} tokens) · {shown.memory.dropped.length} trimmed
          {trying && ' · preview, not saved'}
        </span>
        {trying && tried.loading && <span className="spinner small" />}
        <span className="spacer" />
        {trying && (
          <>
            <button className="button small" onClick={() => void updateSettings({ memoryBudget: budget })}>
              Use as default
            </button>
            <button className="button small ghost" onClick={() => setBudget(saved)}>
              Reset
            </button>
          </>
        )}
      </div>
      <h4>Sent to the model</h4>
      <MemoryList items={shown.memory.included} empty="No memory fits the budget, or none exists yet." testId="memory-included" />
      <h4>Trimmed</h4>
      {shown.memory.dropped.length === 0 ? (
        <p className="muted small">Nothing trimmed.</p>
      ) : (
        <ul className="memory-list dropped" data-testid="memory-dropped">
          {shown.memory.dropped.map((item) => (
            <li key={item.id}>
              <MemoryLine item={item} />
              <div className="memory-reason">{item.reason}</div>
            </li>
          ))}
        </ul>
      )}
      <button className="link-button small" onClick={() => setView('memory')}>
        Manage memories →
      </button>
    </div>
  )
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
