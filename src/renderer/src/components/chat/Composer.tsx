import { useEffect, useRef, useState } from 'react'
import type { ProjectInfo } from '../../../../shared/api'
import { useApp } from '../../state/app-state'
import { isDraftEmpty, LARGE_PASTE_CHARS, type Draft } from '../../state/draft'
import { findTrigger, type MenuItem, type Trigger } from './mention-menu'
import { characterCount } from '../../plural'

// The message box. Enter sends, Shift+Enter adds a line, Esc stops a running answer. `/` lists the project's
// skills (the chosen skill's body goes into the message), `@` lists tables (their columns.md is attached).

interface Props {
  draft: Draft
  onDraft(draft: Draft): void
  busy: boolean
  /** A message is on its way to the server: Send waits rather than sending a second one. */
  sending?: boolean
  disabled: string | null
  onSend(): void
  onStop(): void
}

const MAX_MENU_ITEMS = 8

function tableKey(table: ProjectInfo['tables'][number]): string {
  return `${table.database}.${table.schema}.${table.table}`
}

function menuItems(project: ProjectInfo | null, trigger: Trigger | null): MenuItem[] {
  if (!project || !trigger) return []
  const items: MenuItem[] =
    trigger.kind === 'skill'
      ? project.skills.map((skill) => ({ value: skill.name, label: `/${skill.name}`, detail: skill.description || skill.location }))
      : project.tables.map((table) => ({ value: tableKey(table), label: `@${table.table}`, detail: `${table.type} · ${table.database}.${table.schema}` }))
  return items.filter((item) => item.label.toLowerCase().includes(trigger.query)).slice(0, MAX_MENU_ITEMS)
}

export function Composer({ draft, onDraft, busy, sending = false, disabled, onSend, onStop }: Props): React.JSX.Element {
  const { project, transport } = useApp()
  const area = useRef<HTMLTextAreaElement>(null)
  const [caret, setCaret] = useState(0)
  const [highlight, setHighlight] = useState(0)
  const [menuClosed, setMenuClosed] = useState(false)
  const [attaching, setAttaching] = useState(false)
  const [attachPath, setAttachPath] = useState('')
  const typed = useRef(draft.text)
  const trigger = menuClosed ? null : findTrigger(draft.text, caret)
  const items = menuItems(project, trigger)

  useEffect(() => setHighlight(0), [trigger?.kind, trigger?.query])
  // Text put in from outside (an example question, a chosen mention): continue typing at its end.
  useEffect(() => {
    const element = area.current
    if (!element || draft.text === typed.current) return
    typed.current = draft.text
    element.setSelectionRange(draft.text.length, draft.text.length)
    setCaret(draft.text.length)
  }, [draft.text])
  useEffect(() => {
    const element = area.current
    if (!element) return
    // Measuring a huge paste would force a layout of all of it: past 20k characters use the maximum height.
    if (draft.text.length > 20_000) return void (element.style.height = '260px')
    element.style.height = 'auto'
    element.style.height = `${Math.min(element.scrollHeight, 260)}px`
  }, [draft.text])

  function choose(item: MenuItem): void {
    if (!trigger) return
    if (trigger.kind === 'skill') {
      const text = (draft.text.slice(0, trigger.start) + draft.text.slice(trigger.end)).replace(/^\s+/, '')
      onDraft({ ...draft, text, skill: item.value })
      setCaret(trigger.start)
    } else {
      const insert = `${item.label} `
      const text = draft.text.slice(0, trigger.start) + insert + draft.text.slice(trigger.end)
      onDraft({ ...draft, text, tables: draft.tables.includes(item.value) ? draft.tables : [...draft.tables, item.value] })
      setCaret(trigger.start + insert.length)
    }
    area.current?.focus()
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLTextAreaElement>): void {
    if (items.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        setHighlight((value) => (value + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length)
        return
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault()
        choose(items[highlight] ?? items[0])
        return
      }
      if (event.key === 'Escape') {
        event.preventDefault()
        setMenuClosed(true)
        return
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      if (!busy && !sending && !disabled && !isDraftEmpty(draft)) onSend()
    }
  }

  async function attach(): Promise<void> {
    if (transport.pickFiles) {
      const files = await transport.pickFiles()
      if (files.length) onDraft({ ...draft, attachments: [...new Set([...draft.attachments, ...files])] })
      return
    }
    setAttaching((value) => !value)
  }

  function addAttachPath(): void {
    const path = attachPath.trim()
    if (!path) return
    onDraft({ ...draft, attachments: [...new Set([...draft.attachments, path])] })
    setAttachPath('')
    setAttaching(false)
  }

  function onPaste(event: React.ClipboardEvent<HTMLTextAreaElement>): void {
    const text = event.clipboardData.getData('text/plain')
    if (text.length <= LARGE_PASTE_CHARS) return
    event.preventDefault()
    onDraft({ ...draft, pasted: draft.pasted ? `${draft.pasted}\n\n${text}` : text })
  }

  const hasChips = draft.skill || draft.pasted || draft.tables.length > 0 || draft.attachments.length > 0
  return (
    <div className="composer">
      {items.length > 0 && (
        <ul className="mention-menu" role="listbox" data-testid="mention-menu">
          <li className="mention-menu-title">{trigger?.kind === 'skill' ? 'Skills — the body goes into your message' : 'Tables — columns.md is attached'}</li>
          {items.map((item, index) => (
            <li key={item.value} role="option" aria-selected={index === highlight} className={index === highlight ? 'active' : ''} onMouseDown={(event) => (event.preventDefault(), choose(item))} onMouseEnter={() => setHighlight(index)}>
              <span className="mention-label">{item.label}</span>
              <span className="mention-detail">{item.detail}</span>
            </li>
          ))}
        </ul>
      )}
      {hasChips && (
        <div className="composer-chips">
          {draft.pasted && <Chip kind="pasted" label={`Pasted text · ${characterCount(draft.pasted.length)}`} title={draft.pasted.slice(0, 400)} onRemove={() => onDraft({ ...draft, pasted: null })} />}
          {draft.skill && <Chip kind="skill" label={`Skill: ${draft.skill}`} onRemove={() => onDraft({ ...draft, skill: null })} />}
          {draft.tables.map((table) => (
            <Chip key={table} kind="table" label={`Table: ${table}`} onRemove={() => onDraft({ ...draft, tables: draft.tables.filter((item) => item !== table) })} />
          ))}
          {draft.attachments.map((path) => (
            <Chip key={path} kind="file" label={path} onRemove={() => onDraft({ ...draft, attachments: draft.attachments.filter((item) => item !== path) })} />
          ))}
        </div>
      )}
      {attaching && (
        <form className="attach-form" onSubmit={(event) => (event.preventDefault(), addAttachPath())}>
          <input className="input" autoFocus placeholder="Path of a file in the project, e.g. docs/metrics.md" value={attachPath} onChange={(event) => setAttachPath(event.target.value)} aria-label="Attachment path" />
          <button className="button small" type="submit" disabled={!attachPath.trim()}>
            Attach
          </button>
          <button className="button small ghost" type="button" onClick={() => setAttaching(false)}>
            Cancel
          </button>
        </form>
      )}
      <div className={`composer-box ${disabled ? 'disabled' : ''}`}>
        <button className="icon-button attach-button" title="Attach a file (its metadata goes into the prompt; the model reads it on demand)" onClick={() => void attach()} disabled={!!disabled}>
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
            <path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48" />
          </svg>
        </button>
        <textarea
          ref={area}
          className="composer-input"
          data-testid="composer"
          autoFocus
          rows={1}
          value={draft.text}
          placeholder={disabled ?? 'Ask about your data…   / for skills, @ for tables'}
          disabled={!!disabled}
          onChange={(event) => {
            setMenuClosed(false)
            typed.current = event.target.value
            setCaret(event.target.selectionStart)
            onDraft({ ...draft, text: event.target.value })
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {busy ? (
          <button className="button stop" onClick={onStop} title="Stop (Esc)" data-testid="stop">
            ■ Stop
          </button>
        ) : (
          <button className="button primary send" onClick={onSend} disabled={!!disabled || sending || isDraftEmpty(draft)} title="Send (Enter)" data-testid="send">
            Send
          </button>
        )}
      </div>
      <div className="composer-hint">Enter to send · Shift+Enter for a new line · Esc to stop</div>
    </div>
  )
}

function Chip({ kind, label, title, onRemove }: { kind: string; label: string; title?: string; onRemove(): void }): React.JSX.Element {
  return (
    <span className={`chip static ${kind}`} title={title} data-testid={`chip-${kind}`}>
      {label}
      <button className="chip-remove" onClick={onRemove} aria-label={`Remove ${label}`}>
        ×
      </button>
    </span>
  )
}
