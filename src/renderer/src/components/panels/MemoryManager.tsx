import './panels.css'
import { useCallback, useEffect, useState } from 'react'
import type { MemoryView } from '../../../../shared/api'
import type { MemoryCategory } from '../../../../shared/prompt'
import { useApp } from '../../state/app-state'
import { errorMessage } from '../../../../shared/error-message'

// Every stored memory for this project: add, edit, disable, delete; memory on/off for the project.

const CATEGORY_LABELS: Record<MemoryCategory, string> = { global_rule: 'Standing rule', personal_fact: 'About the user' }

export function MemoryManager(): React.JSX.Element {
  const { api, notify, bumpRevision, settings, updateSettings } = useApp()
  const [memories, setMemories] = useState<MemoryView[] | null>(null)
  const [category, setCategory] = useState<MemoryCategory>('global_rule')
  const [content, setContent] = useState('')

  const load = useCallback(async () => {
    try {
      setMemories(await api.listMemories({}))
    } catch (error) {
      notify('error', `Could not load memories: ${errorMessage(error)}`)
      setMemories([])
    }
  }, [api, notify])
  useEffect(() => void load(), [load])

  async function change(action: () => Promise<unknown>, what: string): Promise<boolean> {
    try {
      await action()
      await load()
      bumpRevision()
      return true
    } catch (error) {
      notify('error', `${what}: ${errorMessage(error)}`)
      return false
    }
  }

  const live = (memories ?? []).filter((memory) => memory.supersededBy === null)
  const superseded = (memories ?? []).filter((memory) => memory.supersededBy !== null)
  return (
    <section className="panel" data-testid="memory-manager">
      <header className="panel-head">
        <h2>Memory</h2>
        <p className="muted">Standing rules and facts learned in earlier chats. Enabled memories go into the system prompt, within the memory budget.</p>
        <label className="toggle">
          <input type="checkbox" checked={settings?.memoryEnabled ?? true} onChange={(event) => void updateSettings({ memoryEnabled: event.target.checked })} />
          <span className="toggle-track" />
          <span>Use memory in this project</span>
        </label>
      </header>
      <form
        className="memory-add"
        onSubmit={(event) => {
          event.preventDefault()
          const text = content.trim()
          if (!text) return
          // Cleared at once, so the next memory can be typed while this one is saved; given back if it fails.
          setContent('')
          void change(() => api.addMemory({ category, content: text }), 'Could not add the memory').then((added) => added || setContent((typed) => typed || text))
        }}
      >
        <select value={category} onChange={(event) => setCategory(event.target.value === 'personal_fact' ? 'personal_fact' : 'global_rule')} aria-label="Category">
          <option value="global_rule">{CATEGORY_LABELS.global_rule}</option>
          <option value="personal_fact">{CATEGORY_LABELS.personal_fact}</option>
        </select>
        <input className="input" placeholder="e.g. Always show revenue in EUR" value={content} onChange={(event) => setContent(event.target.value)} data-testid="memory-input" />
        <button className="button primary" type="submit" disabled={!content.trim()}>
          Add memory
        </button>
      </form>
      {memories === null ? (
        <p className="muted">
          <span className="spinner small" /> Loading…
        </p>
      ) : live.length === 0 ? (
        <p className="muted">No memories yet. Add a standing rule above, or just chat: Glassbox learns lasting instructions (“always…”, “from now on…”) in the background.</p>
      ) : (
        <ul className="memory-table" data-testid="memory-table">
          {live.map((memory) => (
            <MemoryRow
              key={memory.id}
              memory={memory}
              onSave={(text) => change(() => api.editMemory({ id: memory.id, content: text }), 'Could not save')}
              onToggle={() => change(() => api.setMemoryEnabled({ id: memory.id, enabled: !memory.enabled }), 'Could not change it')}
              onDelete={() => change(() => api.deleteMemory({ id: memory.id }), 'Could not delete')}
            />
          ))}
        </ul>
      )}
      {superseded.length > 0 && (
        <details className="superseded">
          <summary>{superseded.length} superseded by newer memories</summary>
          <ul>
            {superseded.map((memory) => (
              <li key={memory.id} className="muted">
                {memory.content} <span className="small">(→ #{memory.supersededBy})</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  )
}

function MemoryRow(props: { memory: MemoryView; onSave(text: string): Promise<boolean>; onToggle(): Promise<boolean>; onDelete(): Promise<boolean> }): React.JSX.Element {
  const { memory } = props
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(memory.content)
  return (
    <li className={`memory-row ${memory.enabled ? '' : 'disabled'}`}>
      <span className={`badge category-${memory.category}`}>{CATEGORY_LABELS[memory.category]}</span>
      {editing ? (
        <form
          className="memory-edit"
          onSubmit={(event) => {
            event.preventDefault()
            // A failed save keeps the edit open, with the text, beside the reason.
            if (text.trim()) void props.onSave(text.trim()).then((saved) => saved && setEditing(false))
          }}
        >
          <input className="input" value={text} onChange={(event) => setText(event.target.value)} autoFocus />
          <button className="button small primary" type="submit">
            Save
          </button>
          <button className="button small ghost" type="button" onClick={() => (setText(memory.content), setEditing(false))}>
            Cancel
          </button>
        </form>
      ) : (
        <span className="memory-content">
          {memory.content}
          <span className="muted small"> · #{memory.id} · {memory.chatId ? 'learned in a chat' : 'added by you'} · {new Date(memory.updatedAt).toLocaleDateString()}</span>
        </span>
      )}
      {!editing && (
        <span className="memory-actions">
          <button className="icon-button" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button className="icon-button" onClick={() => void props.onToggle()}>
            {memory.enabled ? 'Disable' : 'Enable'}
          </button>
          <button className="icon-button danger" onClick={() => window.confirm('Delete this memory?') && void props.onDelete()}>
            Delete
          </button>
        </span>
      )}
    </li>
  )
}
