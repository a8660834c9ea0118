import './layout.css'
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
import { FeedbackPanel } from '../feedback/FeedbackPanel'
import { CheckSetupPanel } from '../setup/CheckSetupPanel'
import { HelpSheet } from './HelpSheet'
import { PaneResizer } from './PaneResizer'
import { Sidebar } from './Sidebar'
import { Toasts } from './Toasts'
import { TopBar } from './TopBar'
import { ErrorBoundary, PanelError } from '../common/ErrorBoundary'
import { useLearnedMemoryNotices } from '../../state/use-learned-memories'
import { useTrust } from '../../state/use-trust'
import { TrustDialog, TrustIndicator } from './TrustDialog'
import type { RunPlace } from '../../state/versions'

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
  const [inspected, setInspected] = useState<{ runId: string; place?: RunPlace } | null>(null)
  const inspectedRun = inspected?.runId ?? null
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
  const trust = useTrust()
  const inspectRun = useCallback((runId: string, place?: RunPlace) => {
    setInspected({ runId, place })
    setInspectorOpen(true)
    setOverlayOpen(true)
  }, [])
  // ‹ › on the inspected answer, or a new version of it: the inspector shows the answer now on screen.
  const followRun = useCallback((runId: string, place?: RunPlace) => setInspected({ runId, place }), [])
  // Another chat (or a new one) opened: an answer of the chat left behind is no longer what is on screen.
  useEffect(() => setInspected((current) => (current?.place && current.place.chatId !== activeChatId ? null : current)), [activeChatId])

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
      <ErrorBoundary fallback={(error, retry) => <PanelError name="top bar" className="topbar" error={error} retry={retry} />}>
        <TopBar extra={project ? <TrustIndicator trust={trust} /> : null} />
      </ErrorBoundary>
      <ErrorBoundary fallback={(error, retry) => <PanelError name="sidebar" className="sidebar" error={error} retry={retry} />}>
        <Sidebar onHelp={() => setHelpOpen(true)} />
      </ErrorBoundary>
      <PaneResizer className="sidebar-resizer" label="Sidebar width" value={widths.sidebar} min={SIDEBAR_RANGE.min} max={SIDEBAR_RANGE.max} grows="right" onResize={(width) => resize('sidebar', width)} />
      <main className="center" id="main">
        <ErrorBoundary resetKey={`${view}:${activeChatId ?? ''}`} fallback={(error, retry) => <PanelError name={view === 'chat' ? 'chat' : `${view} panel`} error={error} retry={retry} />}>
          {!ready ? (
            <div className="center-fill">
              <span className="spinner" /> Connecting…
            </div>
          ) : !project ? (
            <Welcome />
          ) : view === 'memory' ? (
            <MemoryManager />
          ) : view === 'settings' ? (
            <SettingsPanel trust={trust} />
          ) : view === 'tests' ? (
            <TestsPanel onInspectRun={inspectRun} />
          ) : view === 'feedback' ? (
            <FeedbackPanel />
          ) : view === 'setup' ? (
            <CheckSetupPanel onReviewTrust={trust.showDialog} />
          ) : (
            <ChatView
              controller={controller}
              draft={draft}
              onDraft={setDraft}
              onInspectRun={inspectRun}
            inspectedRunId={inspectedRun}
            onFollowRun={followRun}
              onStartWith={(question) => void startWith(question)}
              onStartChat={(first) => void startChat(first)}
              autoSend={autoSendChat !== null && autoSendChat === activeChatId}
              onAutoSent={() => setAutoSendChat(null)}
            />
          )}
        </ErrorBoundary>
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
      {inspectorShown && (
        <ErrorBoundary resetKey={`${activeChatId ?? ''}:${inspectedRun ?? ''}`} fallback={(error, retry) => <PanelError name="prompt inspector" className="inspector" error={error} retry={retry} />}>
          <Inspector chatId={activeChatId} draft={draft} runId={inspectedRun} runPlace={inspected?.place} onLeaveRun={() => setInspected(null)} onHide={() => (layout === 'tab' ? setOverlayOpen(false) : setInspectorOpen(false))} />
        </ErrorBoundary>
      )}
      {helpOpen && <HelpSheet onClose={() => setHelpOpen(false)} />}
      {project && <TrustDialog trust={trust} />}
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
