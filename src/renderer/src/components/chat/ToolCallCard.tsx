import { useState } from 'react'
import type { ToolCallView } from '../../../../shared/api'
import { useApp } from '../../state/app-state'
import { formatNumber } from '../../state/locale'
import { readTable, sqlOf } from '../../state/tool-data'
import { queryLabel } from '../common/plain-words'
import { LazyMarkdown } from './LazyMarkdown'
import { ResultTable } from './ResultTable'

// One tool call, collapsed to a single line (what ran, how it went); open it for the SQL and its rows,
// or the arguments and the exact text the model received.

const LABELS: Record<string, string> = {
  execute_sql: 'Ran SQL',
  read: 'Read file',
  list: 'Listed folder',
  search: 'Searched files',
  grep: 'Searched text',
  read_agent_result: 'Read earlier result',
  read_tool_result: 'Read tool result'
}

const MAX_OUTPUT_CHARS = 20_000

/** A built-in tool by its label; a project MCP server's tool (`server__tool`) by its server and tool. */
function toolLabel(name: string): string {
  const label = LABELS[name]
  if (label) return label
  const split = name.indexOf('__')
  return split > 0 ? `MCP ${name.slice(0, split)} · ${name.slice(split + 2)}` : name
}

function headline(call: ToolCallView): string {
  const args = call.args
  const first = ['file_path', 'path', 'pattern', 'resultId'].map((key) => args[key]).find((value) => typeof value === 'string')
  if (call.name === 'execute_sql') {
    const table = readTable(call.data)
    if (call.ok === false) return 'failed'
    return table ? `${formatNumber(table.rowCount)} row${table.rowCount === 1 ? '' : 's'}${table.queryId ? ` · ${queryLabel(table.queryId)}` : ''}` : ''
  }
  return typeof first === 'string' ? first : ''
}

function StatusDot({ ok }: { ok: boolean | null }): React.JSX.Element {
  if (ok === null) return <span className="spinner small" role="img" aria-label="running" />
  return <span className={`status-dot ${ok ? 'ok' : 'failed'}`} aria-label={ok ? 'succeeded' : 'failed'} />
}

export function ToolCallCard({ call }: { call: ToolCallView }): React.JSX.Element {
  const [open, setOpen] = useState(false)
  const sql = call.name === 'execute_sql' ? sqlOf(call) : null
  const table = call.name === 'execute_sql' ? readTable(call.data) : null
  return (
    <div className={`tool-call ${open ? 'open' : ''} ${call.ok === false ? 'failed' : ''}`} data-testid="tool-call" data-tool={call.name}>
      <button className="tool-call-head" onClick={() => setOpen((value) => !value)} aria-expanded={open}>
        <StatusDot ok={call.ok} />
        <span className="tool-call-label">{toolLabel(call.name)}</span>
        <span className="tool-call-summary" title={call.name === 'execute_sql' ? (readTable(call.data)?.queryId ?? undefined) : undefined}>
          {headline(call)}
        </span>
        <span className="chevron" aria-hidden>
          {open ? '▾' : '▸'}
        </span>
      </button>
      {open && (
        <div className="tool-call-body">
          {sql !== null ? (
            <div className="sql-block">
              <LazyMarkdown text={'```sql\n' + sql + '\n```'} />
              <CopySql sql={sql} />
            </div>
          ) : (
            <pre className="code-block">{JSON.stringify(call.args, null, 2)}</pre>
          )}
          {table && call.ok !== false ? (
            <ResultTable table={table} />
          ) : call.ok === null ? (
            <p className="muted small">Running…</p>
          ) : (
            <OutputText text={call.output} failed={call.ok === false} />
          )}
        </div>
      )}
    </div>
  )
}

function CopySql({ sql }: { sql: string }): React.JSX.Element {
  const { notify } = useApp()
  const [copied, setCopied] = useState(false)
  return (
    <button
      className="icon-button copy-sql"
      title="Copy this SQL to the clipboard"
      onClick={() =>
        void navigator.clipboard.writeText(sql).then(
          () => (setCopied(true), window.setTimeout(() => setCopied(false), 1500)),
          () => notify('error', 'Could not copy: the clipboard is not available here.')
        )
      }
    >
      {copied ? 'Copied' : 'Copy SQL'}
    </button>
  )
}

function OutputText({ text, failed }: { text: string; failed: boolean }): React.JSX.Element {
  if (!text) return <p className="muted small">The tool returned no text.</p>
  const cut = text.length > MAX_OUTPUT_CHARS
  return (
    <>
      <div className="muted small">{failed ? 'Error returned to the model' : 'Output sent to the model'}</div>
      <pre className={`code-block ${failed ? 'error-text' : ''}`}>{cut ? text.slice(0, MAX_OUTPUT_CHARS) : text}</pre>
      {cut && <p className="muted small">… {(text.length - MAX_OUTPUT_CHARS).toLocaleString()} more characters</p>}
    </>
  )
}
