import { useState } from 'react'
import type { EvaluationComparison, EvaluationSummary } from '../../../../../shared/api'
import { LineDiffView } from '../../inspector/LineDiffView'

// Earlier evaluations of the project, newest first: open one, or tick two and compare them — which cases
// each model fixed or broke, and what changed in the system prompt between them (did my RULES.md edit help?).

export interface EvaluationHistoryProps {
  history: EvaluationSummary[]
  shownId: string | null
  comparison: EvaluationComparison | null
  onOpen: (evaluationId: string) => void
  onCompare: (before: string, after: string) => void
}

export function EvaluationHistory({ history, shownId, comparison, onOpen, onCompare }: EvaluationHistoryProps): React.JSX.Element {
  const [picked, setPicked] = useState<string[]>([])
  const toggle = (id: string): void => setPicked((list) => (list.includes(id) ? list.filter((item) => item !== id) : [...list, id].slice(-2)))
  // Older first, whatever order they were ticked in.
  const ordered = history.filter((item) => picked.includes(item.id)).reverse()
  return (
    <section className="eval-history" data-testid="eval-history">
      <h3>History</h3>
      {history.length === 0 ? (
        <p className="muted small">No evaluation yet. Each run is kept here so you can compare it with the next one.</p>
      ) : (
        <ul className="history-list">
          {history.map((item) => (
            <li key={item.id} className={item.id === shownId ? 'current' : undefined}>
              <label>
                <input type="checkbox" checked={picked.includes(item.id)} onChange={() => toggle(item.id)} aria-label={`Pick the evaluation of ${new Date(item.startedAt).toLocaleString()} for comparison`} />
              </label>
              <button className="history-open" onClick={() => onOpen(item.id)} data-testid="history-item">
                <span>{new Date(item.startedAt).toLocaleString()}</span>
                <span className="muted small">
                  {item.models.map((model) => `${model.model} ${model.passed}/${model.total}`).join(' · ')}
                  {item.status !== 'done' && ` · ${item.status}`}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button className="button small secondary" disabled={ordered.length !== 2} onClick={() => onCompare(ordered[0].id, ordered[1].id)} data-testid="compare-evaluations">
        Compare the two picked
      </button>
      {comparison && <ComparisonView comparison={comparison} />}
    </section>
  )
}

function ComparisonView({ comparison }: { comparison: EvaluationComparison }): React.JSX.Element {
  const fixed = comparison.changes.filter((change) => change.change === 'fixed')
  const broke = comparison.changes.filter((change) => change.change === 'broke')
  return (
    <div className="comparison" data-testid="comparison">
      <p className="small">
        {new Date(comparison.before.startedAt).toLocaleString()} → {new Date(comparison.after.startedAt).toLocaleString()}: <span className="badge ok">{comparison.fixed} fixed</span>{' '}
        <span className="badge failed">{comparison.broke} broke</span>
      </p>
      {comparison.changes.length === 0 && <p className="muted small">These evaluations share no model and case to compare.</p>}
      <ChangeList title="Fixed" changes={fixed} testId="fixed-cases" />
      <ChangeList title="Broke" changes={broke} testId="broke-cases" />
      <h4>System prompt</h4>
      {!comparison.promptChanged ? (
        <p className="muted small">Unchanged between the two.</p>
      ) : (
        <LineDiffView lines={comparison.promptDiff} testId="prompt-diff" />
      )}
    </div>
  )
}

function ChangeList({ title, changes, testId }: { title: string; changes: EvaluationComparison['changes']; testId: string }): React.JSX.Element | null {
  if (changes.length === 0) return null
  return (
    <>
      <h4>{title}</h4>
      <ul className="change-list" data-testid={testId}>
        {changes.map((change) => (
          <li key={`${change.model}-${change.file}`}>
            <code>{change.name}</code> <span className="muted small">[{change.model}] {change.before} → {change.after}</span>
          </li>
        ))}
      </ul>
    </>
  )
}
