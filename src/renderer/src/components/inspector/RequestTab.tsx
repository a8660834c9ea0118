import { useState } from 'react'
import type { PromptPreview, RequestMessage } from '../../../../shared/prompt'
import { BudgetBar, TrimList } from './BudgetBar'

// The request exactly as it leaves Glassbox: the budget against the context window, what was trimmed,
// then every message in order with its role and prompt-cache mark.

export function RequestTab({ preview }: { preview: PromptPreview }): React.JSX.Element {
  return (
    <div className="request-tab">
      {preview.budget ? (
        <>
          <BudgetBar budget={preview.budget} />
          <h4>Trimmed to fit</h4>
          <TrimList budget={preview.budget} />
        </>
      ) : (
        <p className="notice">The context window is unknown (no model selected), so the budget cannot be checked. Pick a model or set the window in Settings.</p>
      )}
      <h4>
        Messages <span className="muted">({preview.messages.length}, in order)</span>
      </h4>
      <ol className="request-messages" data-testid="request-messages">
        {preview.messages.map((message, index) => (
          <RequestMessageItem key={index} message={message} />
        ))}
      </ol>
    </div>
  )
}

const PREVIEW_CHARS = 600

function contentText(message: RequestMessage): string {
  if (typeof message.content === 'string') return message.content
  return message.content.map((part) => (part.type === 'text' ? part.text : `[image: ${part.image_url.url.slice(0, 60)}…]`)).join('\n')
}

function RequestMessageItem({ message }: { message: RequestMessage }): React.JSX.Element {
  const [open, setOpen] = useState(false)
  const text = contentText(message)
  const long = text.length > PREVIEW_CHARS
  return (
    <li className={`request-message role-${message.role}`}>
      <div className="request-message-head">
        <span className={`role-badge role-${message.role}`}>{message.role}</span>
        {message.cache && (
          <span className="badge cache" title="Marked for prompt caching">
            cached
          </span>
        )}
        {message.toolCallId && <span className="muted small">for {message.toolCallId}</span>}
        <span className="spacer" />
        <span className="muted small">{text.length.toLocaleString()} chars</span>
      </div>
      {message.toolCalls?.map((call) => (
        <div key={call.id} className="request-tool-call">
          <code>{call.name}</code> <span className="muted small">{JSON.stringify(call.args).slice(0, 200)}</span>
        </div>
      ))}
      {text && <pre className="request-message-text">{open || !long ? text.slice(0, 200_000) : `${text.slice(0, PREVIEW_CHARS)}…`}</pre>}
      {long && (
        <button className="link-button small" onClick={() => setOpen((value) => !value)}>
          {open ? 'Collapse' : 'Show all'}
        </button>
      )}
    </li>
  )
}
