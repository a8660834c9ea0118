import { useCallback, useEffect, useState } from 'react'
import { useApp } from '../../state/app-state'
import { INSPECTOR_RANGE, inspectorLayout, SIDEBAR_RANGE, usePaneWidths } from '../../state/panes'
import { useShortcuts } from '../../state/shortcuts'
import { EMPTY_DRAFT, type Draft } from '../../state/draft'
import { useChat } from '../../state/use-chat'
import { ChatView } from '../chat/ChatView'
import { Inspector } from '../inspector/Inspector'
import { MemoryManager } from '../panels/MemoryManager'
import { SettingsPanel } from '../panels/SettingsPanel'
import { TestsPanel } from '../panels/TestsPanel'
import { HelpSheet } from './HelpSheet'
import { PaneResizer } from './PaneResizer'
import { Sidebar } from './Sidebar'
import { Toasts } from './Toasts'
import { TopBar } from './TopBar'
import { useLearnedMemoryNotices } from '../../state/use-learned-memories'

// Top bar; sidebar | chat or panel | prompt inspector. The draft lives here because the composer writes
// it and the inspector previews it. Panes are resizable and remembered; when the inspector would leave the
// chat narrower than 480 px it collapses to a tab at the right edge (opened, it lies over the chat).

const INSPECTOR_TAB_WIDTH = 34

function focusComposer(): void {
  document.querySelector<HTMLElement>('[data-testid="composer"]')?.focus()
}

export function App(): React.JSX.Element {
  const { ready, project, view, activeChatId, newChat, setView } = useApp()
  const controller = useChat(activeChatId)
  const [drafts, setDrafts] = useState<Record<string, Draft>>({})
  const [inspectedRun, setInspectedRun] = useState<string | null>(null)
  const [inspectorOpen, setInspectorOpen] = useState(true)
  const draftKey = activeChatId ?? ''
  const draft = drafts[draftKey] ?? EMPTY_DRAFT
  const setDraft = useCallback((next: Draft) => setDrafts((all) => ({ ...all, [draftKey]: next })), [draftKey])
  // For the cold-start figure: when the app first shows real state.
  useEffect(() => {
    if (ready && performance.getEntriesByName('glassbox-ready').length === 0) performance.mark('glassbox-ready')
  }, [ready])
  const startWith = useCallback(
    async (question: string) => {
      const chatId = await newChat()
      if (chatId) setDrafts((all) => ({ ...all, [chatId]: { ...EMPTY_DRAFT, text: question } }))
    },
    [newChat]
  )
  // On a narrow window the inspector is a tab; opened from there it lies over the chat (overlayOpen).
  const [overlayOpen, setOverlayOpen] = useState(false)
  // Typing at first open, before any chat exists: the message opens a chat and is sent in it.
  const [autoSendChat, setAutoSendChat] = useState<string | null>(null)
  const startChat = useCallback(
    async (first: Draft) => {
      const chatId = await newChat()
      if (!chatId) return
      setDrafts((all) => ({ ...all, '': EMPTY_DRAFT, [chatId]: first }))
      setAutoSendChat(chatId)
    },
    [newChat]
  )
  useLearnedMemoryNotices()
  const inspectRun = useCallback((runId: string) => {
    setInspectedRun(runId)
    setInspectorOpen(true)
    setOverlayOpen(true)
  }, [])

  // Layout: pane widths, the inspector docked or as a tab, shortcuts and their help sheet.
  const { widths, resize, viewportWidth } = usePaneWidths()
  const { layout, inspectorWidth } = inspectorLayout(viewportWidth, widths, INSPECTOR_TAB_WIDTH)
  const [helpOpen, setHelpOpen] = useState(false)
  useShortcuts({
    newChat: () => void newChat().then((id) => id && window.setTimeout(focusComposer, 50)),
    focusComposer: () => (view === 'chat' ? focusComposer() : (setView('chat'), window.setTimeout(focusComposer, 50))),
    toggleInspector: () => (layout === 'tab' ? setOverlayOpen((open) => !open) : setInspectorOpen((open) => !open)),
    searchChats: () => document.querySelector<HTMLElement>('[data-testid="chat-search"]')?.focus(),
    help: () => setHelpOpen((open) => !open)
  })
  const inspectorShown = Boolean(project) && (layout === 'tab' ? overlayOpen : inspectorOpen)
  const paneClass = !project ? 'no-inspector' : layout === 'tab' ? `inspector-as-tab ${overlayOpen ? 'inspector-over' : ''}` : inspectorOpen ? '' : 'inspector-as-tab'
  const paneStyle = { '--sidebar-width': `${widths.sidebar}px`, '--inspector-width': `${inspectorWidth}px`, '--inspector-tab-width': `${INSPECTOR_TAB_WIDTH}px` } as React.CSSProperties

  return (
    <div className={`app ${paneClass}`} style={paneStyle} data-layout={project ? (inspectorShown && layout === 'docked' ? 'docked' : inspectorShown ? 'over' : 'tab') : 'none'}>
      <a
        className="skip-link"
        href="#composer"
        onClick={(event) => {
          event.preventDefault()
          focusComposer()
        }}
      >
        Skip to the message box
      </a>
      <TopBar />
      <Sidebar onHelp={() => setHelpOpen(true)} />
      <PaneResizer className="sidebar-resizer" label="Sidebar width" value={widths.sidebar} min={SIDEBAR_RANGE.min} max={SIDEBAR_RANGE.max} grows="right" onResize={(width) => resize('sidebar', width)} />
      <main className="center" id="main">
        {!ready ? (
          <div className="center-fill">
            <span className="spinner" /> Connecting…
          </div>
        ) : !project ? (
          <Welcome />
        ) : view === 'memory' ? (
          <MemoryManager />
        ) : view === 'settings' ? (
          <SettingsPanel />
        ) : view === 'tests' ? (
          <TestsPanel onInspectRun={inspectRun} />
        ) : (
          <ChatView
            controller={controller}
            draft={draft}
            onDraft={setDraft}
            onInspectRun={inspectRun}
            onStartWith={(question) => void startWith(question)}
            onStartChat={(first) => void startChat(first)}
            autoSend={autoSendChat !== null && autoSendChat === activeChatId}
            onAutoSent={() => setAutoSendChat(null)}
          />
        )}
        {/* Inside the chat pane, at its top: notices never cover the composer, the inspector or the sidebar. */}
        <Toasts />
      </main>
      {project && (!inspectorShown || layout === 'tab') && (
        <button className="inspector-tab" onClick={() => (layout === 'tab' ? setOverlayOpen((open) => !open) : setInspectorOpen(true))} aria-expanded={inspectorShown} title="Show the prompt inspector (Ctrl+I)" data-testid="inspector-tab">
          <span>Prompt inspector</span>
        </button>
      )}
      {inspectorShown && layout === 'docked' && (
        <PaneResizer className="inspector-resizer" label="Inspector width" value={inspectorWidth} min={INSPECTOR_RANGE.min} max={INSPECTOR_RANGE.max} grows="left" onResize={(width) => resize('inspector', width)} />
      )}
      {inspectorShown && <Inspector chatId={activeChatId} draft={draft} runId={inspectedRun} onLeaveRun={() => setInspectedRun(null)} onHide={() => (layout === 'tab' ? setOverlayOpen(false) : setInspectorOpen(false))} />}
      {helpOpen && <HelpSheet onClose={() => setHelpOpen(false)} />}
    </div>
  )
}

function Welcome(): React.JSX.Element {
  const { transport } = useApp()
  return (
    <div className="center-fill">
      <div className="empty-state">
        <h2>Open a data project</h2>
        <p className="muted">
          A project is a folder with <code>databases/</code>, <code>RULES.md</code>, <code>agent/skills/</code> and <code>tests/</code> — a nao context folder works as is.
          {transport.kind === 'web' ? ' Type its path in the sidebar.' : ' Choose it in the sidebar.'}
        </p>
      </div>
    </div>
  )
}
