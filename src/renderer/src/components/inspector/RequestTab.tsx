import { useState } from 'react'
import type { RunRequestView } from '../../../../shared/api'
import type { PromptPreview, RequestMessage } from '../../../../shared/prompt'
import type { McpToolView } from '../../../../shared/trust'
import { parseRequestBody } from './request-body'
import { BudgetBar, TrimList } from './BudgetBar'
import { formatTokens } from './format'

// The request exactly as it leaves Glassbox: the budget against the context window, what was trimmed,
// then every message in order with its role and prompt-cache mark.

export function RequestTab({ preview, requests }: { preview: PromptPreview; requests?: RunRequestView[] }): React.JSX.Element {
  return (
    <div className="request-tab">
      {requests && requests.length > 0 && <RunRounds requests={requests} />}
      {preview.budget ? (
        <>
          <BudgetBar budget={preview.budget} />
          <h4>Trimmed to fit</h4>
          <TrimList budget={preview.budget} />
        </>
      ) : (
        <p className="notice">The context window is unknown (no model selected), so the budget cannot be checked. Pick a model or set the window in Settings.</p>
      )}
      {preview.mcpTools && preview.mcpTools.length > 0 && <McpTools tools={preview.mcpTools} />}
      <h4>
        {requests && requests.length > 0 ? 'First request as assembled' : 'Messages'} <span className="muted">({preview.messages.length}, in order)</span>
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

/** Tools the project's MCP servers add to every request: which server, which tool, its schema and cost. */
function McpTools({ tools }: { tools: McpToolView[] }): React.JSX.Element {
  const total = tools.reduce((sum, tool) => sum + tool.tokens, 0)
  return (
    <details className="request-tools" data-testid="mcp-tools">
      <summary>
        Tools from MCP servers ({tools.length}, {total.toLocaleString()} tokens)
      </summary>
      <table className="mcp-tool-table">
        <thead>
          <tr>
            <th>Server</th>
            <th>Tool</th>
            <th>Tokens</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((tool) => (
            <tr key={tool.name} title={tool.description}>
              <td>{tool.server}</td>
              <td>
                <code>{tool.tool}</code>
                <details>
                  <summary className="small">schema</summary>
                  <pre className="request-message-text">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
                </details>
              </td>
              <td>{tool.tokens.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}

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

/**
 * Every request of a run, round by round, read from the bodies captured where the HTTP request was made:
 * system, user, assistant tool calls, tool results, tool schemas and parameters. "Copy request as JSON"
 * copies that body byte for byte.
 */
function RunRounds({ requests }: { requests: RunRequestView[] }): React.JSX.Element {
  const [selected, setSelected] = useState(requests.length - 1)
  const [copied, setCopied] = useState<number | null>(null)
  const request = requests[Math.min(selected, requests.length - 1)]
  const parsed = parseRequestBody(request.body)
  const copy = (): void => {
    void navigator.clipboard
      ?.writeText(request.body)
      .then(() => setCopied(request.round))
      .catch(() => setCopied(null))
  }
  return (
    <section className="run-rounds" data-testid="run-rounds">
      <h4>
        Sent over the wire <span className="muted">({requests.length === 1 ? '1 request' : `${requests.length} requests`}, one per round)</span>
      </h4>
      <div className="round-picker" role="group" aria-label="Request round">
        {requests.map((item, index) => (
          <button
            key={item.round}
            className="button small ghost"
            aria-pressed={index === selected}
            onClick={() => setSelected(index)}
            data-testid="round-button"
            title={item.usage ? `Round ${item.round}: ${formatTokens(item.usage.inputTokens)} prompt tokens in, ${formatTokens(item.usage.outputTokens)} out, as the server reported them` : `Round ${item.round}: the server reported no token counts`}
          >
            Round {item.round}
            {item.usage && <span className="muted"> · {formatTokens(item.usage.inputTokens)} in</span>}
          </button>
        ))}
        <span className="spacer" />
        <button className="button small" onClick={copy} data-testid="copy-request">
          {copied === request.round ? 'Copied' : 'Copy request as JSON'}
        </button>
      </div>
      <div className="muted small">
        {request.url} · {request.body.length.toLocaleString('en-US')} characters · sent {new Date(request.sentAt).toLocaleTimeString()}
      </div>
      <div className="small" data-testid="round-usage">
        {request.usage
          ? `Round ${request.round}, counted by the server: ${formatTokens(request.usage.inputTokens)} prompt tokens in, ${formatTokens(request.usage.outputTokens)} out${request.servedModel ? ` · answered by ${request.servedModel}` : ''}.`
          : `Round ${request.round}: the server reported no token counts for this request.`}
        {requests.length > 1 && totals(requests)}
      </div>
      {parsed ? (
        <>
          <div className="request-params" data-testid="request-params">
            {parsed.params.map(([key, value]) => (
              <code key={key}>
                {key}: {JSON.stringify(value)}
              </code>
            ))}
          </div>
          {parsed.tools.length > 0 && (
            <details className="request-tools">
              <summary>
                Tool schemas ({parsed.tools.length}): {parsed.tools.map((tool) => tool.name).join(', ')}
              </summary>
              <pre className="request-message-text">{JSON.stringify(parsed.tools, null, 2)}</pre>
            </details>
          )}
          <ol className="request-messages" data-testid="round-messages">
            {parsed.messages.map((message, index) => (
              <RequestMessageItem key={`${request.round}-${index}`} message={message} />
            ))}
          </ol>
        </>
      ) : (
        <pre className="request-message-text">{request.body.slice(0, 200_000)}</pre>
      )}
    </section>
  )
}

/** The run's totals as the sum of its rounds, so "7,969 in" can be read back into 3,934 + 4,035. */
function totals(requests: RunRequestView[]): string {
  const counted = requests.filter((request) => request.usage)
  if (counted.length === 0) return ''
  const input = counted.map((request) => request.usage?.inputTokens ?? 0)
  const output = counted.reduce((sum, request) => sum + (request.usage?.outputTokens ?? 0), 0)
  const sum = input.reduce((all, value) => all + value, 0)
  const missing = requests.length - counted.length
  return ` Run total: ${input.map(formatTokens).join(' + ')} = ${formatTokens(sum)} in, ${formatTokens(output)} out${missing > 0 ? ` (${missing} round${missing === 1 ? '' : 's'} not reported)` : ''}.`
}
