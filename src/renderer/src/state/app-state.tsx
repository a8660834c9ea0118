import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { ApiInputs, ChatSummary, GlassboxApi, ModelServerView, ProjectInfo, PushEvent, Settings, SyncProgress, SyncSummary } from '../../../shared/api'
import type { Transport } from '../transport'
import { useNewestReply } from './newest-reply'
import { errorMessage } from '../../../shared/error-message'
import { DEFAULT_CHAT_TITLE } from '../../../shared/chat-title'

// App-wide state: the open project, settings, detected model servers, the chat list and which chat or
// panel is showing. Push events are fanned out to components through `onPush`.

export type View = 'chat' | 'memory' | 'settings' | 'tests' | 'feedback' | 'setup'

export interface Toast {
  id: number
  kind: 'error' | 'info'
  text: string
  /** One action the notice offers (e.g. Undo); taking it dismisses the notice. */
  action?: ToastAction
}

export interface ToastAction {
  label: string
  run(): void
}

export interface AppState {
  transport: Transport
  api: GlassboxApi
  ready: boolean
  project: ProjectInfo | null
  recentProjects: string[]
  settings: Settings | null
  models: ModelServerView[] | null
  modelsLoading: boolean
  chats: ChatSummary[]
  chatSearch: string
  activeChatId: string | null
  view: View
  /** Bumped whenever what the next prompt would contain may have changed (memories, settings, a run ended). */
  revision: number
  sync: { running: boolean; progress: SyncProgress | null }
  toasts: Toast[]
  setView(view: View): void
  setChatSearch(search: string): void
  selectChat(chatId: string | null): void
  openProject(path: string): Promise<boolean>
  refreshChats(): Promise<void>
  /** Creates a chat and opens it; its id, or null when it failed (the user was told why). */
  newChat(): Promise<string | null>
  deleteChat(chatId: string): Promise<void>
  /** Renames a chat; false when it failed (the user was told why). */
  renameChat(chatId: string, title: string): Promise<boolean>
  /** Resolves true once the server has saved the change (false: it was undone and the reason shown). */
  updateSettings(patch: ApiInputs['updateSettings']): Promise<boolean>
  refreshModels(): Promise<void>
  runSync(): Promise<void>
  /** Stops the running sync between tables. */
  cancelSync(): Promise<void>
  bumpRevision(): void
  notify(kind: Toast['kind'], text: string, action?: ToastAction): void
  dismissToast(id: number): void
  onPush(listener: (event: PushEvent) => void): () => void
}

/** The title the store gives a chat until its first question names it. */

const AppContext = createContext<AppState | null>(null)

export function useApp(): AppState {
  const state = useContext(AppContext)
  if (!state) throw new Error('useApp() must be used inside <AppProvider>.')
  return state
}

function definedOnly(patch: ApiInputs['updateSettings']): Partial<Settings> {
  const result: Partial<Settings> = {}
  if (patch.endpoint !== undefined) result.endpoint = patch.endpoint
  if (patch.model !== undefined) result.model = patch.model
  if (patch.testMode !== undefined) result.testMode = patch.testMode
  if (patch.channel !== undefined) result.channel = patch.channel
  if (patch.timezone !== undefined) result.timezone = patch.timezone
  if (patch.memoryEnabled !== undefined) result.memoryEnabled = patch.memoryEnabled
  if (patch.memoryBudget !== undefined) result.memoryBudget = patch.memoryBudget
  if (patch.contextWindow !== undefined) result.contextWindow = patch.contextWindow
  if (patch.endpoints !== undefined) result.endpoints = patch.endpoints
  return result
}


export function AppProvider({ transport, children }: { transport: Transport; children: ReactNode }): React.JSX.Element {
  const api = transport.api
  const [ready, setReady] = useState(false)
  const [project, setProject] = useState<ProjectInfo | null>(null)
  const [recentProjects, setRecentProjects] = useState<string[]>([])
  const [settings, setSettings] = useState<Settings | null>(null)
  const [models, setModels] = useState<ModelServerView[] | null>(null)
  const [modelsLoading, setModelsLoading] = useState(false)
  const [chats, setChats] = useState<ChatSummary[]>([])
  const [chatSearch, setChatSearch] = useState('')
  const [activeChatId, setActiveChatId] = useState<string | null>(null)
  const [view, setView] = useState<View>('chat')
  const [revision, setRevision] = useState(0)
  const [sync, setSync] = useState<AppState['sync']>({ running: false, progress: null })
  const [toasts, setToasts] = useState<Toast[]>([])
  const listeners = useRef(new Set<(event: PushEvent) => void>())
  const toastId = useRef(0)

  const notify = useCallback((kind: Toast['kind'], text: string, action?: ToastAction) => {
    const id = ++toastId.current
    setToasts((list) => [...list.slice(-3), { id, kind, text, ...(action ? { action } : {}) }])
    // A notice with an action stays long enough to take it.
    window.setTimeout(() => setToasts((list) => list.filter((toast) => toast.id !== id)), action ? 15000 : kind === 'error' ? 9000 : 4000)
  }, [])
  const dismissToast = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), [])
  const bumpRevision = useCallback(() => setRevision((value) => value + 1), [])

  // Only the newest list asked for is shown (a search typed, then cleared).
  const chatLists = useNewestReply()
  const refreshChats = useCallback(async () => {
    const isNewest = chatLists.begin()
    try {
      const list = await api.listChats({ search: chatSearch || undefined })
      if (isNewest()) setChats(list)
    } catch (error) {
      if (isNewest()) notify('error', `Could not list chats: ${errorMessage(error)}`)
    }
  }, [api, chatLists, chatSearch, notify])

  const modelLists = useNewestReply()
  const refreshModels = useCallback(async () => {
    const isNewest = modelLists.begin()
    setModelsLoading(true)
    try {
      const found = await api.listModels()
      if (isNewest()) setModels(found)
    } catch (error) {
      if (!isNewest()) return
      notify('error', `Could not detect model servers: ${errorMessage(error)}`)
      setModels([])
    } finally {
      if (isNewest()) setModelsLoading(false)
    }
  }, [api, modelLists, notify])

  const refreshModelsRef = useRef(refreshModels)
  refreshModelsRef.current = refreshModels
  useEffect(() => {
    const unsubscribe = api.subscribe((event) => {
      if (event.channel === 'project-changed') {
        setProject(event.project)
        setRevision((value) => value + 1)
      }
      if (event.channel === 'sync-progress') setSync({ running: event.progress.done < event.progress.total, progress: event.progress })
      // The picker shows each model's window: read the list again when a run found another one.
      if (event.channel === 'models-changed') void refreshModelsRef.current()
      for (const listener of listeners.current) listener(event)
    })
    let cancelled = false
    void (async () => {
      try {
        const [loadedProject, loadedSettings, recent] = await Promise.all([api.getProject(), api.getSettings(), api.listRecentProjects()])
        if (cancelled) return
        setProject(loadedProject)
        setSettings(loadedSettings)
        setRecentProjects(recent)
      } catch (error) {
        notify('error', `Could not load the app state: ${errorMessage(error)}`)
      } finally {
        if (!cancelled) setReady(true)
      }
    })()
    void refreshModels()
    return () => {
      cancelled = true
      unsubscribe()
    }
  }, [api, notify, refreshModels])

  useEffect(
    () =>
      transport.onReconnect?.(() => {
        notify('info', 'Reconnected to the Glassbox server.')
        setRevision((value) => value + 1)
        void refreshChats()
      }),
    [transport, notify, refreshChats]
  )

  useEffect(() => {
    if (!project) return
    const timer = window.setTimeout(() => void refreshChats(), chatSearch ? 150 : 0)
    return () => window.clearTimeout(timer)
  }, [project, chatSearch, refreshChats])

  const openProject = useCallback(
    async (path: string) => {
      try {
        const opened = await api.openProject({ path })
        setProject(opened)
        setActiveChatId(null)
        setView('chat')
        setRecentProjects(await api.listRecentProjects())
        setRevision((value) => value + 1)
        return true
      } catch (error) {
        notify('error', errorMessage(error))
        return false
      }
    },
    [api, notify]
  )

  // A second "New chat" while one is being made (a double click, the shortcut held) gets the same chat.
  const newChatInFlight = useRef<Promise<string | null> | null>(null)
  const makeNewChat = useCallback(async () => {
    try {
      // An untouched "New chat" is opened again rather than piling up another empty one.
      // Every candidate is checked, not only the newest: one may have been written in since (a run that kept the title).
      const candidates = chats.filter((chat) => chat.title === DEFAULT_CHAT_TITLE && !chat.parentChatId && chat.channel === (settings?.channel ?? null)).slice(0, 5)
      for (const untouched of candidates) {
        if ((await api.getChat({ chatId: untouched.id })).messages.length > 0) continue
        setActiveChatId(untouched.id)
        setView('chat')
        return untouched.id
      }
      const created = await api.createChat({ channel: settings?.channel ?? undefined })
      setChats((list) => [created, ...list])
      setActiveChatId(created.id)
      setView('chat')
      return created.id
    } catch (error) {
      notify('error', `Could not create a chat: ${errorMessage(error)}`)
      return null
    }
  }, [api, chats, notify, settings?.channel])
  const newChat = useCallback(() => {
    newChatInFlight.current ??= makeNewChat().finally(() => (newChatInFlight.current = null))
    return newChatInFlight.current
  }, [makeNewChat])

  const renameChat = useCallback(
    async (chatId: string, title: string) => {
      try {
        const renamed = await api.renameChat({ chatId, title })
        setChats((list) => list.map((chat) => (chat.id === chatId ? renamed : chat)))
        return true
      } catch (error) {
        notify('error', `Could not rename the chat: ${errorMessage(error)}`)
        return false
      }
    },
    [api, notify]
  )

  const deleteChat = useCallback(
    async (chatId: string) => {
      try {
        await api.deleteChat({ chatId })
        setChats((list) => list.filter((chat) => chat.id !== chatId))
        setActiveChatId((current) => (current === chatId ? null : current))
      } catch (error) {
        notify('error', `Could not delete the chat: ${errorMessage(error)}`)
      }
    },
    [api, notify]
  )

  const updateSettings = useCallback(
    async (patch: ApiInputs['updateSettings']) => {
      let before: Settings | null = null
      // Optimistic: controls reflect the change at once; the saved settings replace it, or it is undone.
      setSettings((current) => {
        before = current
        return current ? { ...current, ...definedOnly(patch) } : current
      })
      try {
        setSettings(await api.updateSettings(patch))
        setRevision((value) => value + 1)
        return true
      } catch (error) {
        setSettings(before)
        notify('error', `Could not save the setting: ${errorMessage(error)}`)
        return false
      }
    },
    [api, notify]
  )

  const syncCancelled = useRef(false)
  const runSync = useCallback(async () => {
    setSync({ running: true, progress: null })
    syncCancelled.current = false
    try {
      const result = await api.syncProject({})
      notify(result.errors?.length ? 'error' : 'info', describeSync(result))
      setRevision((value) => value + 1)
    } catch (error) {
      if (syncCancelled.current) {
        notify('info', errorMessage(error))
        setRevision((value) => value + 1)
      } else notify('error', `Sync failed: ${errorMessage(error)}`)
    } finally {
      setSync((state) => ({ ...state, running: false }))
    }
  }, [api, notify])

  const cancelSync = useCallback(async () => {
    syncCancelled.current = true
    await api.cancelSync({})
  }, [api])

  const onPush = useCallback((listener: (event: PushEvent) => void) => {
    listeners.current.add(listener)
    return () => {
      listeners.current.delete(listener)
    }
  }, [])

  const selectChat = useCallback((chatId: string | null) => {
    setActiveChatId(chatId)
    setView('chat')
  }, [])

  const state = useMemo<AppState>(
    () => ({
      transport,
      api,
      ready,
      project,
      recentProjects,
      settings,
      models,
      modelsLoading,
      chats,
      chatSearch,
      activeChatId,
      view,
      revision,
      sync,
      toasts,
      setView,
      setChatSearch,
      selectChat,
      openProject,
      refreshChats,
      newChat,
      deleteChat,
      renameChat,
      updateSettings,
      refreshModels,
      runSync,
      cancelSync,
      bumpRevision,
      notify,
      dismissToast,
      onPush
    }),
    [transport, api, ready, project, recentProjects, settings, models, modelsLoading, chats, chatSearch, activeChatId, view, revision, sync, toasts, selectChat, openProject, refreshChats, newChat, deleteChat, renameChat, updateSettings, refreshModels, runSync, cancelSync, bumpRevision, notify, dismissToast, onPush]
  )
  return <AppContext.Provider value={state}>{children}</AppContext.Provider>
}

/** One line for the sync notice: what changed, what was left alone and why, and any failure. */
function describeSync(result: SyncSummary): string {
  const parts = [`Synced ${result.tables} tables`]
  const changed = result.changed?.length
  if (changed !== undefined) parts.push(changed === 0 ? 'no file changed' : `${changed} file${changed === 1 ? '' : 's'} changed`)
  const foreign = result.changedBySomeoneElse ?? []
  if (foreign.length > 0) parts.push(`${foreign.length} left untouched, not written by sync (e.g. ${foreign[0]})`)
  const errors = result.errors ?? []
  return parts.join(' · ') + '.' + (errors.length > 0 ? ` ${errors.join(' ')}` : '')
}
