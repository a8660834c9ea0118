import { useCallback, useEffect, useState } from 'react'
import { useApp } from '../../state/app-state'
import { EMPTY_DRAFT, type Draft } from '../../state/draft'
import { useChat } from '../../state/use-chat'
import { ChatView } from '../chat/ChatView'
import { Inspector } from '../inspector/Inspector'
import { MemoryManager } from '../panels/MemoryManager'
import { SettingsPanel } from '../panels/SettingsPanel'
import { TestsPanel } from '../panels/TestsPanel'
import { Sidebar } from './Sidebar'
import { Toasts } from './Toasts'
import { TopBar } from './TopBar'
import { useLearnedMemoryNotices } from '../../state/use-learned-memories'

// Top bar; sidebar | chat or panel | prompt inspector. The draft lives here because the composer writes
// it and the inspector previews it.

export function App(): React.JSX.Element {
  const { ready, project, view, activeChatId, newChat } = useApp()
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
  }, [])

  return (
    <div className={`app ${inspectorOpen && project ? '' : 'no-inspector'}`}>
      <TopBar />
      <Sidebar />
      <main className="center">
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
        {project && !inspectorOpen && (
          <button className="inspector-toggle" onClick={() => setInspectorOpen(true)} title="Show the prompt inspector">
            ⟨ Inspector
          </button>
        )}
        {/* Inside the chat pane, at its top: notices never cover the composer, the inspector or the sidebar. */}
        <Toasts />
      </main>
      {project && inspectorOpen && <Inspector chatId={activeChatId} draft={draft} runId={inspectedRun} onLeaveRun={() => setInspectedRun(null)} onHide={() => setInspectorOpen(false)} />}
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
