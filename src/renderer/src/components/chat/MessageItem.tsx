import { memo, useState } from 'react'
import type { ChatMessageView, ToolCallView } from '../../../../shared/api'
import { formatDuration, formatNumber } from '../../state/locale'
import { readChart, readClarification, readFollowUps, type TableData } from '../../state/tool-data'
import type { VersionInfo } from '../../state/versions'
import { LazyChartView } from './LazyChartView'
import { ClarificationCard } from './ClarificationCard'
import { FollowUpChips } from './FollowUpChips'
import { LazyMarkdown } from './LazyMarkdown'
import { ToolCallCard } from './ToolCallCard'
import { RunError } from './RunError'
import { FeedbackBar } from '../feedback/FeedbackBar'
import { characterCount } from '../../plural'
import { ErrorBoundary } from '../common/ErrorBoundary'
import { modelName } from '../../state/model-name'
import { forgetMemoryOutcome, useMemoryOutcome } from '../../state/memory-outcomes'
import { useApp } from '../../state/app-state'
import { errorMessage } from '../../../../shared/error-message'

export interface MessageActions {
  regenerate(): void
  editAndResend(messageId: string, text: string): void
  answerClarification(answer: string): void
  send(text: string): void
  inspectRun(runId: string): void
  lookupTable(queryId: string): TableData | null
  /** Shows another version of a question (and its answer). */
  showVersion(turnId: string, index: number): void
}

const DISPLAY_TOOLS = new Set(['display_chart', 'clarification', 'suggest_follow_ups'])
const USER_TEXT_PREVIEW = 6_000

interface Props {
  message: ChatMessageView
  isLast: boolean
  busy: boolean
  actions: MessageActions
  /** The question has several versions: which one this is. */
  version?: VersionInfo
  /** Part of an earlier version: shown, not changed. */
  archived?: boolean
}

export const MessageItem = memo(function MessageItem(props: Props): React.JSX.Element {
  return (
    <ErrorBoundary resetKey={props.message} fallback={(error) => <UnshownMessage message={props.message} error={error} />}>
      {props.message.role === 'user' ? <UserMessage {...props} /> : <AssistantMessage {...props} />}
    </ErrorBoundary>
  )
})

/** A message that failed to render: said so in its place, with its raw text one click away. */
function UnshownMessage({ message, error }: { message: ChatMessageView; error: Error }): React.JSX.Element {
  const [copied, setCopied] = useState(false)
  const what = message.role === 'user' ? 'This question' : 'This answer'
  return (
    <div className={`message ${message.role} unshown`} data-message-id={message.id} data-role={message.role} data-testid="unshown-message">
      <div className="notice" role="alert">
        {what} could not be shown ({error.message}).{' '}
        <button
          className="button small"
          onClick={() =>
            void navigator.clipboard?.writeText(message.text).then(
              () => setCopied(true),
              () => setCopied(false)
            )
          }
        >
          {copied ? 'Copied' : 'Copy raw text'}
        </button>
      </div>
    </div>
  )
}

function UserMessage({ message, busy, actions, archived }: Props): React.JSX.Element {
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(message.text)
  const [expanded, setExpanded] = useState(false)
  const long = message.text.length > USER_TEXT_PREVIEW
  const resend = (): void => {
    setEditing(false)
    actions.editAndResend(message.id, draft)
  }
  if (editing) {
    return (
      <div className="message user editing" data-message-id={message.id} data-role="user">
        <textarea
          className="input edit-area"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          // Like the message box: Enter sends, Shift+Enter is a new line (IME composition is left alone).
          onKeyDown={(event) => {
            if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
            event.preventDefault()
            if (draft.trim() && !busy) resend()
          }}
          autoFocus
          rows={Math.min(10, draft.split('\n').length + 1)}
          aria-label="Edit the question (Enter to resend, Shift+Enter for a new line)"
          data-testid="edit-question"
        />
        <div className="message-actions visible">
          <button className="button small" disabled={!draft.trim() || busy} onClick={resend}>
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
            {expanded ? 'Show less' : `Show all (${characterCount(message.text.length)})`}
          </button>
        )}
      </div>
      <div className="message-actions">
        <button className="icon-button" title={archived ? 'This is an earlier version: go to the newest one to edit' : 'Edit and resend (the answer you have now is kept as a version)'} disabled={busy || archived || message.id.startsWith('local-')} onClick={() => (setDraft(message.text), setEditing(true))}>
          Edit
        </button>
      </div>
    </div>
  )
}

function AssistantMessage({ message, isLast, busy, actions, version, archived }: Props): React.JSX.Element {
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
        return clarification ? <ClarificationCard key={call.callId} {...clarification} disabled={!isLast || archived || busy} onAnswer={actions.answerClarification} /> : null
      })}
      {isLast && !archived && !busy && calls.filter((call) => call.name === 'suggest_follow_ups').map((call) => <FollowUpChips key={call.callId} suggestions={readFollowUps(call)} disabled={busy} onPick={actions.send} />)}
      {(version || message.figures) && (
        <div className="message-footer">
          {version && <VersionSwitcher version={version} onShow={actions.showVersion} />}
          {archived && <span className="badge small">earlier version</span>}
          {message.figures && !streaming && <Figures figures={message.figures} />}
        </div>
      )}
      {!streaming && message.runId && <MemoryOutcomeLine runId={message.runId} />}
      {!streaming && (
        <div className="message-actions">
          <button className="icon-button" title="Copy the answer" onClick={() => void navigator.clipboard?.writeText(message.text)}>
            Copy
          </button>
          {isLast && !archived && (
            <button className="icon-button" title="Ask the model again (this answer is kept as a version)" disabled={busy} onClick={actions.regenerate}>
              Regenerate
            </button>
          )}
          {message.runId && (
            <button className="icon-button" title={`Show exactly what the model was sent for this answer (run ${message.runId})`} onClick={() => message.runId && actions.inspectRun(message.runId)}>
              Inspect prompt
            </button>
          )}
          {!archived && message.status === 'done' && !message.id.startsWith('live-') && <FeedbackBar message={message} />}
          <span className="hint">Select text to fork a chat from it</span>
        </div>
      )}
    </div>
  )
}

function VersionSwitcher({ version, onShow }: { version: VersionInfo; onShow(turnId: string, index: number): void }): React.JSX.Element {
  const { turnId, index, count } = version
  return (
    <span className="version-switcher" role="group" aria-label="Answer versions" data-testid="version-switcher">
      <button className="icon-button" aria-label="Previous version" disabled={index === 0} onClick={() => onShow(turnId, index - 1)}>
        ‹
      </button>
      <span className="version-count" aria-live="polite">
        {index + 1}/{count}
      </span>
      <button className="icon-button" aria-label="Next version" disabled={index === count - 1} onClick={() => onShow(turnId, index + 1)}>
        ›
      </button>
    </span>
  )
}

/** What was learned from this exchange for memory: saved (with undo), nothing, or why it failed. */
function MemoryOutcomeLine({ runId }: { runId: string }): React.JSX.Element | null {
  const outcome = useMemoryOutcome(runId)
  const { api, bumpRevision, notify } = useApp()
  if (!outcome) return null
  if (outcome.status === 'nothing') {
    return (
      <div className="memory-outcome muted small" data-testid="memory-outcome" data-status="nothing">
        Memory: nothing to remember from this exchange.
      </div>
    )
  }
  if (outcome.status === 'failed') {
    return (
      <div className="memory-outcome warn small" data-testid="memory-outcome" data-status="failed">
        Memory: nothing was saved — learning failed: {outcome.reason}
      </div>
    )
  }
  return (
    <div className="memory-outcome small" data-testid="memory-outcome" data-status="saved">
      {outcome.memories.map((memory) => (
        <div key={memory.id}>
          Remembered: “{memory.content}”{' '}
          <button
            className="link-button"
            onClick={() =>
              void api
                .deleteMemory({ id: memory.id })
                .then(() => (forgetMemoryOutcome(memory.id), bumpRevision()))
                .catch((error: unknown) => notify('error', `Could not forget it: ${errorMessage(error)}`))
            }
          >
            Undo
          </button>
        </div>
      ))}
    </div>
  )
}

/** Model, time to first token, total time and tokens in/out of the run that wrote this answer. */
function Figures({ figures }: { figures: NonNullable<ChatMessageView['figures']> }): React.JSX.Element {
  return (
    <span className="message-figures" data-testid="message-figures">
      <span
        title={
          figures.requestedModel
            ? `${figures.model}: the server reported this model answering; Glassbox asked for “${figures.requestedModel}”`
            : `${figures.model}: the model that wrote this answer, as the server reported it`
        }
        data-testid="answer-model"
      >
        {modelName(figures.model)}
      </span>
      {figures.firstTokenMs !== null && <span title="Time until the model's first output (text, reasoning or a tool call)">first token {formatDuration(figures.firstTokenMs)}</span>}
      {figures.totalMs !== null && <span title="Time from sending to the end of the answer, tools included">{formatDuration(figures.totalMs)} total</span>}
      {figures.inputTokens !== null && figures.outputTokens !== null && (
        <span title="Tokens the model read (prompt, every round) → tokens it wrote, as the server reported them">
          {formatNumber(figures.inputTokens)} → {formatNumber(figures.outputTokens)} tokens
        </span>
      )}
    </span>
  )
}

function ChartCall({ call, actions }: { call: ToolCallView; actions: MessageActions }): React.JSX.Element | null {
  const spec = readChart(call, { get: (queryId: string) => actions.lookupTable(queryId) ?? undefined })
  if (call.ok === null) return <div className="chart pending muted small">Drawing chart…</div>
  if (!spec) return <div className="notice">The chart could not be drawn: its spec has no x axis or series.</div>
  return <LazyChartView spec={spec} />
}
