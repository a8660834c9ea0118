import { memo, useState } from 'react'
import type { ChatMessageView, ToolCallView } from '../../../../shared/api'
import { readChart, readClarification, readFollowUps, type TableData } from '../../state/tool-data'
import { LazyChartView } from './LazyChartView'
import { ClarificationCard } from './ClarificationCard'
import { FollowUpChips } from './FollowUpChips'
import { LazyMarkdown } from './LazyMarkdown'
import { ToolCallCard } from './ToolCallCard'
import { RunError } from './RunError'

export interface MessageActions {
  regenerate(): void
  editAndResend(messageId: string, text: string): void
  answerClarification(answer: string): void
  send(text: string): void
  inspectRun(runId: string): void
  lookupTable(queryId: string): TableData | null
}

const DISPLAY_TOOLS = new Set(['display_chart', 'clarification', 'suggest_follow_ups'])
const USER_TEXT_PREVIEW = 6_000

interface Props {
  message: ChatMessageView
  isLast: boolean
  busy: boolean
  actions: MessageActions
}

export const MessageItem = memo(function MessageItem({ message, isLast, busy, actions }: Props): React.JSX.Element {
  return message.role === 'user' ? <UserMessage message={message} busy={busy} actions={actions} /> : <AssistantMessage message={message} isLast={isLast} busy={busy} actions={actions} />
})

function UserMessage({ message, busy, actions }: Omit<Props, 'isLast'>): React.JSX.Element {
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(message.text)
  const [expanded, setExpanded] = useState(false)
  const long = message.text.length > USER_TEXT_PREVIEW
  if (editing) {
    return (
      <div className="message user editing" data-message-id={message.id} data-role="user">
        <textarea className="input edit-area" value={draft} onChange={(event) => setDraft(event.target.value)} autoFocus rows={Math.min(10, draft.split('\n').length + 1)} />
        <div className="message-actions visible">
          <button className="button small" disabled={!draft.trim() || busy} onClick={() => (setEditing(false), actions.editAndResend(message.id, draft))}>
            Save &amp; resend
          </button>
          <button className="button small ghost" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </div>
      </div>
    )
  }
  return (
    <div className="message user" data-message-id={message.id} data-role="user">
      <div className="user-bubble">
        <div className="user-text">{long && !expanded ? `${message.text.slice(0, USER_TEXT_PREVIEW)}…` : message.text}</div>
        {long && (
          <button className="link-button small" onClick={() => setExpanded((value) => !value)}>
            {expanded ? 'Show less' : `Show all (${formatSize(message.text.length)})`}
          </button>
        )}
      </div>
      <div className="message-actions">
        <button className="icon-button" title="Edit and resend" disabled={busy || message.id.startsWith('local-')} onClick={() => (setDraft(message.text), setEditing(true))}>
          Edit
        </button>
      </div>
    </div>
  )
}

function formatSize(chars: number): string {
  return chars >= 1_000_000 ? `${(chars / 1_000_000).toFixed(1)} M characters` : `${Math.round(chars / 1000)} k characters`
}

function AssistantMessage({ message, isLast, busy, actions }: Props): React.JSX.Element {
  const calls = message.toolCalls ?? []
  const work = calls.filter((call) => !DISPLAY_TOOLS.has(call.name))
  const streaming = message.status === 'streaming'
  return (
    <div className={`message assistant ${message.status ?? ''}`} data-message-id={message.id} data-role="assistant" data-status={message.status}>
      {message.reasoning && (
        <details className="reasoning">
          <summary>{streaming && !message.text && work.length === 0 ? 'Thinking…' : 'Reasoning'}</summary>
          <div className="reasoning-text">{message.reasoning}</div>
        </details>
      )}
      {work.length > 0 && (
        <div className="tool-calls">
          {work.map((call) => (
            <ToolCallCard key={call.callId} call={call} />
          ))}
        </div>
      )}
      {calls.filter((call) => call.name === 'display_chart').map((call) => (
        <ChartCall key={call.callId} call={call} actions={actions} />
      ))}
      {message.text ? (
        <div className="assistant-text" data-testid="assistant-text">
          <LazyMarkdown text={message.text} />
        </div>
      ) : streaming && work.length === 0 ? (
        <div className="typing" aria-label="waiting for the model">
          <span />
          <span />
          <span />
        </div>
      ) : null}
      {message.status === 'cancelled' && <div className="notice">Stopped. The answer above is what the model wrote before you stopped it.</div>}
      {message.status === 'failed' && <RunError error={message.error} />}
      {calls.filter((call) => call.name === 'clarification').map((call) => {
        const clarification = readClarification(call)
        return clarification ? <ClarificationCard key={call.callId} {...clarification} disabled={!isLast || busy} onAnswer={actions.answerClarification} /> : null
      })}
      {isLast && !busy && calls.filter((call) => call.name === 'suggest_follow_ups').map((call) => <FollowUpChips key={call.callId} suggestions={readFollowUps(call)} disabled={busy} onPick={actions.send} />)}
      {!streaming && (
        <div className="message-actions">
          <button className="icon-button" title="Copy the answer" onClick={() => void navigator.clipboard?.writeText(message.text)}>
            Copy
          </button>
          {isLast && (
            <button className="icon-button" title="Ask the model again" disabled={busy} onClick={actions.regenerate}>
              Regenerate
            </button>
          )}
          {message.runId && (
            <button className="icon-button" title="Show exactly what the model was sent for this answer" onClick={() => message.runId && actions.inspectRun(message.runId)}>
              Inspect prompt
            </button>
          )}
          <span className="hint">Select text to fork a chat from it</span>
        </div>
      )}
    </div>
  )
}

function ChartCall({ call, actions }: { call: ToolCallView; actions: MessageActions }): React.JSX.Element | null {
  const spec = readChart(call, { get: (queryId: string) => actions.lookupTable(queryId) ?? undefined })
  if (call.ok === null) return <div className="chart pending muted small">Drawing chart…</div>
  if (!spec) return <div className="notice">The chart could not be drawn: its spec has no x axis or series.</div>
  return <LazyChartView spec={spec} />
}
