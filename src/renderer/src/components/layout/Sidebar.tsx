import { useEffect, useRef, useState } from 'react'
import type { ChatSummary } from '../../../../shared/api'
import { useApp, type View } from '../../state/app-state'
import { plural } from '../../../../shared/format-count'
import { RenameField } from './RenameField'
import { NewProjectForm } from '../setup/NewProjectForm'

// Project (open a folder, recent folders), chats (search, new) and the panels.

export function Sidebar({ onHelp }: { onHelp(): void }): React.JSX.Element {
  const app = useApp()
  const { project, chats, activeChatId, chatSearch, view } = app
  // The open chat stays in sight when it changes and when the list changes around it (a search cleared).
  const list = useRef<HTMLUListElement>(null)
  useEffect(() => {
    list.current?.querySelector('li.active')?.scrollIntoView({ block: 'nearest' })
  }, [activeChatId, chatSearch, chats.length])
  return (
    <nav className="sidebar">
      <ProjectBox />
      {project && (
        <>
          <div className="sidebar-section chats-head">
            <span className="sidebar-label">Chats</span>
            <button className="button small primary" onClick={() => void app.newChat()} data-testid="new-chat" title="New chat (Ctrl+Shift+O)" aria-label="New chat">
              + New
            </button>
          </div>
          <input className="input search" placeholder="Search chats and messages" value={chatSearch} onChange={(event) => app.setChatSearch(event.target.value)} aria-label="Search chats" type="search" data-testid="chat-search" />
          <ul className="chat-list" data-testid="chat-list" aria-label="Chats" ref={list}>
            {chats.map((chat) => (
              <ChatEntry key={chat.id} chat={chat} active={chat.id === activeChatId && view === 'chat'} />
            ))}
            {chats.length === 0 && <li className="muted small empty-list">{chatSearch ? 'No chat or message matches.' : 'No chats yet. Start one with + New.'}</li>}
          </ul>
        </>
      )}
      <div className="sidebar-footer">
        {(
          [
            ['memory', 'Memory'],
            ['tests', 'Tests'],
            ['feedback', 'Feedback'],
            ['setup', 'Check setup'],
            ['settings', 'Settings']
          ] satisfies [View, string][]
        ).map(([id, label]) => (
          <button key={id} className={`nav-button ${view === id ? 'active' : ''}`} onClick={() => app.setView(view === id ? 'chat' : id)} disabled={!project && id !== 'settings'} data-testid={`nav-${id}`}>
            {label}
          </button>
        ))}
        <button className="nav-button help" onClick={onHelp} title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts" data-testid="nav-help">
          ?
        </button>
      </div>
    </nav>
  )
}

/** One chat: open it; rename (button or F2) and delete (button or Delete key) work from the keyboard too. */
function ChatEntry({ chat, active }: { chat: ChatSummary; active: boolean }): React.JSX.Element {
  const app = useApp()
  const [renaming, setRenaming] = useState(false)
  const remove = (): void => {
    if (window.confirm(`Delete the chat “${chat.title}” and its messages? This cannot be undone.`)) void app.deleteChat(chat.id)
  }
  if (renaming) {
    return (
      <li className={active ? 'active renaming' : 'renaming'}>
        <RenameField title={chat.title} onDone={(title) => (setRenaming(false), title !== null && title !== chat.title ? void app.renameChat(chat.id, title) : undefined)} />
      </li>
    )
  }
  return (
    <li className={active ? 'active' : ''} data-chat-id={chat.id}>
      <button
        className="chat-link"
        onClick={() => app.selectChat(chat.id)}
        onKeyDown={(event) => {
          if (event.key === 'F2') {
            event.preventDefault()
            setRenaming(true)
          }
          if (event.key === 'Delete') {
            event.preventDefault()
            remove()
          }
        }}
        title={chat.title}
        aria-current={active ? 'page' : undefined}
      >
        {chat.parentChatId && <ForkIcon />}
        <span className="chat-title">{chat.title}</span>
        {chat.channel && <span className="badge small">{chat.channel}</span>}
      </button>
      <span className="chat-actions">
        <button className="chat-action" title="Rename (F2)" aria-label={`Rename ${chat.title}`} onClick={() => setRenaming(true)}>
          <PencilIcon />
        </button>
        <button className="chat-action chat-delete" title="Delete (Delete key)" aria-label={`Delete ${chat.title}`} onClick={remove}>
          <span aria-hidden>×</span>
        </button>
      </span>
    </li>
  )
}

function PencilIcon(): React.JSX.Element {
  return (
    <svg width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <path d="M4 20h4L19 9l-4-4L4 16v4z" />
    </svg>
  )
}

function ProjectBox(): React.JSX.Element {
  const { project, transport, openProject, recentProjects } = useApp()
  const [editingWanted, setEditing] = useState(false)
  const editing = editingWanted || !project
  const [path, setPath] = useState('')
  const [opening, setOpening] = useState(false)
  const [creating, setCreating] = useState(false)

  async function open(target: string): Promise<void> {
    if (!target.trim()) return
    setOpening(true)
    const ok = await openProject(target.trim())
    setOpening(false)
    if (ok) {
      setEditing(false)
      setPath('')
    }
  }

  async function pick(): Promise<void> {
    if (!transport.pickFolder) return setEditing(true)
    const picked = await transport.pickFolder()
    if (picked) await open(picked)
  }

  return (
    <div className="project-box">
      <span className="sidebar-label">Project</span>
      {creating ? (
        <NewProjectForm onDone={() => (setCreating(false), setEditing(false))} />
      ) : project && !editing ? (
        <div className="project-current">
          <div className="project-name" title={project.root} data-testid="project-name">
            {project.name}
          </div>
          <div className="project-meta muted small">
            {plural(project.tables.length, 'table')} · {plural(project.skills.length, 'skill')} · {plural(project.tests.length, 'test')}
          </div>
          <button className="link-button small" onClick={() => (transport.pickFolder ? void pick() : setEditing(true))}>
            Open another folder…
          </button>
          <button className="link-button small" onClick={() => setCreating(true)} data-testid="new-project">
            New project…
          </button>
        </div>
      ) : (
        <form className="project-open" onSubmit={(event) => (event.preventDefault(), void open(path))}>
          {transport.pickFolder && (
            <button type="button" className="button small" onClick={() => void pick()}>
              Choose folder…
            </button>
          )}
          <input className="input" placeholder="/path/to/project" value={path} onChange={(event) => setPath(event.target.value)} aria-label="Project folder path" data-testid="project-path" />
          <div className="row">
            <button className="button small primary" type="submit" disabled={!path.trim() || opening}>
              {opening ? 'Opening…' : 'Open'}
            </button>
            {project && (
              <button className="button small ghost" type="button" onClick={() => setEditing(false)}>
                Cancel
              </button>
            )}
          </div>
          <button className="link-button small" type="button" onClick={() => setCreating(true)} data-testid="new-project">
            New project from a data folder…
          </button>
        </form>
      )}
      {editing && !creating && recentProjects.length > 0 && (
        <ul className="recent-list">
          <li className="muted small">Recent</li>
          {recentProjects.map((recent) => (
            <li key={recent}>
              <button className="link-button small" onClick={() => void open(recent)} title={recent}>
                {recent}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** Marks a chat forked from a selection in another chat. */
export function ForkIcon(): React.JSX.Element {
  return (
    <svg className="fork-mark" width="12" height="12" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" aria-label="Forked chat">
      <circle cx="6" cy="5" r="2.5" />
      <circle cx="18" cy="5" r="2.5" />
      <circle cx="12" cy="19" r="2.5" />
      <path d="M6 7.5v2a3 3 0 0 0 3 3h6a3 3 0 0 0 3-3v-2M12 12.5v4" />
    </svg>
  )
}
