import { useCallback, useEffect, useRef, useState } from 'react'
import type { ChatDetail, ChatMessageView } from '../../../shared/api'
import type { RunEvent } from '../../../shared/events'
import { useApp } from './app-state'
import { messageTextOf, type Draft } from './draft'
import { applyRunEvents, mergeChatRead, streamingMessage } from './run-events'
import { useNewestReply } from './newest-reply'
import { errorMessage } from '../../../shared/error-message'

// One chat: its messages, live run events applied at most once per frame, and the actions on it.

export interface ChatController {
  chat: ChatDetail | null
  loading: boolean
  /** A message is on its way (the run has not started streaming yet). */
  sending: boolean
  activeRunId: string | null
  send(draft: Draft): Promise<boolean>
  stop(): Promise<void>
  regenerate(): Promise<void>
  editAndResend(messageId: string, text: string): Promise<void>
  answerClarification(answer: string): Promise<void>
  fork(messageId: string, selection: string): Promise<void>
}

const QUIET_RUN_MS = 4000

function findActiveRun(messages: ChatMessageView[]): string | null {
  for (let index = messages.length - 1; index >= Math.max(0, messages.length - 4); index--) {
    const message = messages[index]
    if (message.role === 'assistant' && message.status === 'streaming' && message.runId) return message.runId
  }
  return null
}

export function useChat(chatId: string | null): ChatController {
  const app = useApp()
  const { api, notify, refreshChats, bumpRevision, selectChat, onPush } = app
  const [chat, setChat] = useState<ChatDetail | null>(null)
  const [loading, setLoading] = useState(false)
  const [sending, setSending] = useState(false)
  const runIds = useRef(new Set<string>())
  const queue = useRef<RunEvent[]>([])
  const scheduled = useRef(false)
  const lastEventAt = useRef(0)
  const loadedRef = useRef(false)
  const chatIdRef = useRef(chatId)
  chatIdRef.current = chatId

  // Replies can land out of order. A chat read is dropped when a newer read is on its way; one that lands while a
  // send, regenerate or edit is still on its way waits for it to finish and is read again; one from before a
  // change made here (an answer removed for a regenerate, a question shown before the server has it) is read
  // again. So an old state never comes back for a moment, and the newest state always lands.
  const reads = useNewestReply()
  const localChanges = useRef(0)
  const actionsInFlight = useRef(0)
  const readAfterActions = useRef(false)

  const reload = useCallback(async (): Promise<void> => {
    const id = chatIdRef.current
    if (!id) return
    const isNewest = reads.begin()
    const changesBefore = localChanges.current
    try {
      const loaded = await api.getChat({ chatId: id })
      if (chatIdRef.current !== id || !isNewest()) return
      if (actionsInFlight.current > 0) {
        readAfterActions.current = true
        return
      }
      if (localChanges.current !== changesBefore) return await reload()
      for (const message of loaded.messages) if (message.runId) runIds.current.add(message.runId)
      setChat((current) => {
        if (!current) return loaded
        const messages = mergeChatRead(current.messages, loaded.messages)
        return messages === current.messages ? current : { ...loaded, messages }
      })
    } catch (error) {
      notify('error', `Could not load the chat: ${errorMessage(error)}`)
    }
  }, [api, notify, reads])

  useEffect(() => {
    setChat(null)
    queue.current = []
    runIds.current = new Set()
    if (!chatId) return
    setLoading(true)
    void reload().finally(() => setLoading(false))
  }, [chatId, reload])

  const flush = useCallback(() => {
    scheduled.current = false
    const events = queue.current
    if (events.length === 0) return
    queue.current = []
    if (!loadedRef.current) {
      // The chat is still loading: keep the events until it is there.
      queue.current = [...events, ...queue.current]
      return
    }
    setChat((current) => (current ? { ...current, messages: applyRunEvents(current.messages, events) } : current))
    const finished = events.some((event) => event.type === 'end' || event.type === 'error')
    if (finished) {
      // A failed run is said in place, on its answer (MessageItem), not again in a notice.
      void reload()
      void refreshChats()
      bumpRevision()
    }
  }, [bumpRevision, refreshChats, reload])

  // Events that arrived while the chat was loading are applied once it is there.
  useEffect(() => {
    loadedRef.current = chat !== null
    if (chat && queue.current.length > 0) flush()
  }, [chat, flush])

  useEffect(
    () =>
      onPush((push) => {
        if (push.channel !== 'run') return
        const event = push.event
        if (event.type === 'run-start' && event.chatId === chatIdRef.current) runIds.current.add(event.runId)
        if (!runIds.current.has(event.runId)) return
        lastEventAt.current = Date.now()
        queue.current.push(event)
        if (!scheduled.current) {
          scheduled.current = true
          requestAnimationFrame(flush)
          window.setTimeout(() => scheduled.current && flush(), 50)
        }
      }),
    [flush, onPush]
  )

  /** Applies a change made here before the server says so (see localChanges). */
  const setChatLocally = useCallback((change: (current: ChatDetail | null) => ChatDetail | null) => {
    localChanges.current++
    setChat(change)
  }, [])

  const startedRun = useCallback((runId: string) => {
    runIds.current.add(runId)
    setChatLocally((current) => {
      if (!current || current.messages.some((message) => message.runId === runId)) return current
      return { ...current, messages: [...current.messages, streamingMessage(runId, new Date().toISOString())] }
    })
  }, [setChatLocally])

  const appendLocalUserMessage = useCallback((text: string) => {
    const message: ChatMessageView = { id: `local-${Date.now()}`, role: 'user', text, createdAt: new Date().toISOString() }
    setChatLocally((current) => (current ? { ...current, messages: [...current.messages, message] } : current))
  }, [setChatLocally])

  const activeRunId = chat ? findActiveRun(chat.messages) : null

  // Safety net: if a running answer goes quiet (a dropped event stream, a missed end), re-read the chat
  // from the store rather than spin forever.
  useEffect(() => {
    if (!activeRunId) return
    lastEventAt.current = Date.now()
    const timer = window.setInterval(() => {
      if (Date.now() - lastEventAt.current > QUIET_RUN_MS) {
        lastEventAt.current = Date.now()
        void reload()
      }
    }, QUIET_RUN_MS)
    return () => window.clearInterval(timer)
  }, [activeRunId, reload])

  const stop = useCallback(async () => {
    if (!activeRunId) return
    try {
      await api.stopRun({ runId: activeRunId })
    } catch (error) {
      notify('error', `Could not stop the run: ${errorMessage(error)}`)
    }
  }, [activeRunId, api, notify])

  /** Starts a run on the server; on failure says why and reads the chat again, undoing what was shown early. */
  const runAction = useCallback(
    async (action: () => Promise<{ runId: string }>, failure: string | null): Promise<boolean> => {
      setSending(true)
      actionsInFlight.current++
      try {
        const { runId } = await action()
        startedRun(runId)
        return true
      } catch (error) {
        notify('error', failure ? `${failure}: ${errorMessage(error)}` : errorMessage(error))
        readAfterActions.current = true
        return false
      } finally {
        setSending(false)
        actionsInFlight.current--
        if (actionsInFlight.current === 0 && readAfterActions.current) {
          readAfterActions.current = false
          void reload()
        }
      }
    },
    [notify, reload, startedRun]
  )

  const send = useCallback(
    async (draft: Draft) => {
      const id = chatIdRef.current
      if (!id) return false
      const text = messageTextOf(draft)
      appendLocalUserMessage(text)
      return runAction(
        () =>
          api.sendMessage({
            chatId: id,
            text,
            attachments: draft.attachments.length ? draft.attachments : undefined,
            skill: draft.skill ?? undefined,
            tables: draft.tables.length ? draft.tables : undefined
          }),
        null
      )
    },
    [api, appendLocalUserMessage, runAction]
  )

  const regenerate = useCallback(async () => {
    const id = chatIdRef.current
    if (!id) return
    setChatLocally((current) => {
      if (!current) return current
      const messages = [...current.messages]
      while (messages.length && messages[messages.length - 1].role === 'assistant') messages.pop()
      return { ...current, messages }
    })
    await runAction(() => api.regenerate({ chatId: id }), 'Could not regenerate')
  }, [api, runAction, setChatLocally])

  const editAndResend = useCallback(
    async (messageId: string, text: string) => {
      const id = chatIdRef.current
      if (!id) return
      setChatLocally((current) => {
        if (!current) return current
        const index = current.messages.findIndex((message) => message.id === messageId)
        if (index < 0) return current
        const local: ChatMessageView = { id: `local-${Date.now()}`, role: 'user', text, createdAt: new Date().toISOString() }
        return { ...current, messages: [...current.messages.slice(0, index), local] }
      })
      await runAction(() => api.editAndResend({ chatId: id, messageId, text }), 'Could not resend')
    },
    [api, runAction, setChatLocally]
  )

  const answerClarification = useCallback(
    async (answer: string) => {
      const id = chatIdRef.current
      if (!id) return
      appendLocalUserMessage(answer)
      await runAction(() => api.answerClarification({ chatId: id, answer }), 'Could not send the answer')
    },
    [api, appendLocalUserMessage, runAction]
  )

  const fork = useCallback(
    async (messageId: string, selection: string) => {
      const id = chatIdRef.current
      if (!id) return
      try {
        const forked = await api.forkChat({ chatId: id, messageId, selection })
        await refreshChats()
        selectChat(forked.id)
        notify('info', 'Forked: the new chat focuses on the selected text.')
      } catch (error) {
        notify('error', `Could not fork: ${errorMessage(error)}`)
      }
    },
    [api, notify, refreshChats, selectChat]
  )

  return { chat, loading, sending, activeRunId, send, stop, regenerate, editAndResend, answerClarification, fork }
}
