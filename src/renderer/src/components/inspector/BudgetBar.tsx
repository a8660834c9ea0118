import { PlainText } from '../common/PlainText'
import type { Budget } from '../../../../shared/prompt'
import { useApp } from '../../state/app-state'
import { estimateNote } from '../../../../shared/section-tokens'
import { formatTokens, percent } from './format'

// The whole request against the model's context window: one segment per part, reserved output included.

const PART_LABELS: Record<string, string> = {
  system: 'System prompt',
  tools: 'Tool schemas',
  history: 'History',
  user: 'User prompt',
  output: 'Reserved output'
}

export function BudgetBar({ budget }: { budget: Budget }): React.JSX.Element {
  const window = budget.contextWindow
  const used = budget.parts.reduce((sum, part) => sum + part.tokens, 0)
  const free = Math.max(0, window - used)
  const over = used > window
  return (
    <div className="budget" data-testid="budget">
      <div className="budget-head">
        <strong>{formatTokens(used)}</strong>
        <span className="muted">
          {' '}
          of {formatTokens(window)} tokens ({percent(used, window)}){over ? ' — over the window' : ''}
        </span>{' '}
        <span className="muted small" data-testid="budget-estimate">
          ({estimateNote(budget.tokenScale)})
        </span>
      </div>
      <ContextSource budget={budget} />
      {budget.serverCounted !== undefined && (
        <div className="budget-source muted" data-testid="budget-server-count">
          Counted by the server before sending: {formatTokens(budget.serverCounted)} prompt tokens + {formatTokens(budget.reservedOutput)} reserved for the answer ={' '}
          {formatTokens(budget.serverCounted + budget.reservedOutput)} (the parts below are the estimate: {formatTokens(used)})
        </div>
      )}
      <div className={`budget-bar ${over ? 'over' : ''}`} role="img" aria-label={`${used} of ${window} tokens used`}>
        {budget.parts.map((part) => (
          <span key={part.name} className={`budget-seg part-${part.name}`} style={{ width: `${Math.min(100, (part.tokens / Math.max(window, used)) * 100)}%` }} title={`${PART_LABELS[part.name] ?? part.name}: ${formatTokens(part.tokens)}`} />
        ))}
      </div>
      <ul className="budget-legend">
        {budget.parts.map((part) => (
          <li key={part.name}>
            <span className={`swatch part-${part.name}`} />
            <span className="legend-name">{PART_LABELS[part.name] ?? part.name}</span>
            <span className="legend-value">{formatTokens(part.tokens)}</span>
            <span className="legend-share muted">{percent(part.tokens, window)}</span>
          </li>
        ))}
        <li>
          <span className="swatch part-free" />
          <span className="legend-name">{budget.safetyMargin && free > 0 ? `Free (${formatTokens(Math.min(free, budget.safetyMargin))} kept as a safety margin)` : 'Free'}</span>
          <span className="legend-value">{formatTokens(free)}</span>
          <span className="legend-share muted">{percent(free, window)}</span>
        </li>
      </ul>
    </div>
  )
}

export function TrimList({ budget }: { budget: Budget }): React.JSX.Element {
  const used = budget.parts.reduce((sum, part) => sum + part.tokens, 0)
  if (used > budget.contextWindow && budget.trimmed.length === 0) {
    return (
      <p className="notice warn small" data-testid="trims-over">
        Nothing could be trimmed enough: the request is {formatTokens(used - budget.contextWindow)} tokens over the window, so it would not be sent. Shorten the question or start a new chat.
      </p>
    )
  }
  if (budget.trimmed.length === 0) return <p className="muted small">Nothing was trimmed: the whole request fits.</p>
  return (
    <ul className="trim-list" data-testid="trims">
      {budget.trimmed.map((trim, index) => (
        <li key={index}>
          <span className="badge warn">{trim.part}</span> <PlainText text={trim.detail} /> <span className="muted">(−{formatTokens(trim.tokensSaved)} tokens)</span>
        </li>
      ))}
    </ul>
  )
}

/** Where the window came from; when nobody said, the budget is a guess and the user is told how to fix it. */
export function ContextSource({ budget }: { budget: Budget }): React.JSX.Element | null {
  const { setView } = useApp()
  if (!budget.contextSource) return null
  if (budget.contextSource.startsWith('default')) {
    return (
      <div className="budget-source unknown" data-testid="context-source">
        Context window: unknown — set it in settings.{' '}
        <button className="link-button" onClick={() => setView('settings')}>
          Settings
        </button>{' '}
        <span className="muted">(budgeting against {formatTokens(budget.contextWindow)} meanwhile: {budget.contextSource})</span>
      </div>
    )
  }
  return (
    <div className="budget-source muted" data-testid="context-source">
      Context window {formatTokens(budget.contextWindow)} tokens, from {budget.contextSource}
    </div>
  )
}
