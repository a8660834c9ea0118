import '../common/trust.css'
import { useEffect, useRef } from 'react'
import { commandLine, type TrustEntryView } from '../../../../shared/trust'
import type { TrustState } from '../../state/use-trust'

// Trust on first use: when the open project asks for something not approved yet (connecting to a server it
// names with your environment variables, starting an MCP server), this dialog names exactly that. It opens
// when the project was refused something (a sync, a query, a server start) or from the top bar's indicator;
// "Not now" leaves it refused. Settings → Project trust lists everything again.

function pendingEntries(trust: TrustState): TrustEntryView[] {
  return trust.entries.filter((entry) => !entry.approved && entry.askedNow)
}

/** In the top bar while the project asks for something not approved: opens the dialog. */
export function TrustIndicator({ trust }: { trust: TrustState }): React.JSX.Element | null {
  const count = pendingEntries(trust).length
  if (count === 0) return null
  return (
    <button className="button small" onClick={trust.showDialog} data-testid="trust-indicator" title="This project asks for more than its folder: review it">
      Trust: {count} request{count === 1 ? '' : 's'}
    </button>
  )
}

export function TrustDialog({ trust }: { trust: TrustState }): React.JSX.Element | null {
  const pending = pendingEntries(trust)
  const first = useRef<HTMLButtonElement>(null)
  const open = trust.dialogOpen && pending.length > 0
  useEffect(() => {
    if (!open) return
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null
    first.current?.focus()
    return () => before?.focus()
  }, [open])
  if (!open) return null
  const notNow = trust.hideDialog
  return (
    <div className="sheet-backdrop">
      <div
        className="sheet trust-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="trust-dialog-title"
        data-testid="trust-dialog"
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            event.stopPropagation()
            notNow()
          }
          if (event.key === 'Tab') keepFocusInside(event)
        }}
      >
        <header className="sheet-head">
          <h2 id="trust-dialog-title">This project asks for more than its folder</h2>
        </header>
        <p className="small">Approve only what you expect from this project. Until you do, nothing is sent to these servers, no variable is read and nothing is started.</p>
        <ul className="trust-list">
          {pending.map((entry, index) => (
            <li key={entry.fingerprint} className="trust-item" data-testid="trust-request">
              <TrustRequestDetails entry={entry} />
              <button ref={index === 0 ? first : undefined} className="button small primary" onClick={() => void trust.approve(entry.fingerprint)}>
                Approve
              </button>
            </li>
          ))}
        </ul>
        <div className="row">
          <button className="button" onClick={notNow} data-testid="trust-not-now">
            Not now
          </button>
          <span className="muted small">You can approve or revoke later in Settings → Project trust.</span>
        </div>
      </div>
    </div>
  )
}

/** Tab and Shift+Tab cycle through the dialog's buttons: the page behind it is not reachable meanwhile. */
function keepFocusInside(event: React.KeyboardEvent<HTMLElement>): void {
  const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>('button:not([disabled])')]
  if (buttons.length === 0) return
  const at = buttons.findIndex((button) => button === document.activeElement)
  const next = event.shiftKey ? (at <= 0 ? buttons.length - 1 : at - 1) : at === buttons.length - 1 ? 0 : at + 1
  event.preventDefault()
  buttons[next].focus()
}

/** Exactly what one request asks, field by field. */
export function TrustRequestDetails({ entry }: { entry: TrustEntryView }): React.JSX.Element {
  const { request } = entry
  const variables = request.variables.length > 0 ? request.variables.map((name) => `$${name}`).join(', ') : 'none'
  if (request.kind === 'server') {
    return (
      <dl className="trust-details">
        <dt>Connect to</dt>
        <dd>
          <code>
            {request.host}:{request.port}
          </code>{' '}
          ({request.engine} database <code>{request.database}</code>, entry “{request.name}”)
        </dd>
        <dt>As user</dt>
        <dd>
          <code>{request.user}</code>
        </dd>
        <dt>Sending your variables</dt>
        <dd>{variables}</dd>
      </dl>
    )
  }
  if (request.kind === 'process') {
    return (
      <dl className="trust-details">
        <dt>Start (MCP server “{request.name}”)</dt>
        <dd>
          <code className="command-line">{commandLine(request.command, request.args)}</code>
        </dd>
        {request.env.length > 0 && (
          <>
            <dt>With environment</dt>
            <dd>
              <code>{request.env.join(' ')}</code>
            </dd>
          </>
        )}
        <dt>Reading your variables</dt>
        <dd>{variables}</dd>
      </dl>
    )
  }
  return (
    <dl className="trust-details">
      <dt>Connect to the MCP server “{request.name}”</dt>
      <dd>
        <code>{request.url}</code>
      </dd>
      <dt>Sending your variables</dt>
      <dd>{variables}</dd>
    </dl>
  )
}
