import { useCallback, useEffect, useRef, useState } from 'react'
import type { ChatDetail, ChatMessageView } from '../../../shared/api'
import type { RunEvent } from '../../../shared/events'
import { useApp } from './app-state'
import { messageTextOf, type Draft } from './draft'
import { applyRunEvents, streamingMessage } from './run-events'
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

  const reload = useCallback(async () => {
    const id = chatIdRef.current
    if (!id) return
    try {
      const loaded = await api.getChat({ chatId: id })
      if (chatIdRef.current !== id) return
      for (const message of loaded.messages) if (message.runId) runIds.current.add(message.runId)
      setChat((current) => {
        // A run that started after the fetch keeps streaming into what we already show.
        if (current && findActiveRun(current.messages) && !findActiveRun(loaded.messages)) {
          const live = current.messages.filter((message) => message.status === 'streaming')
          if (live.some((message) => !loaded.messages.some((known) => known.runId === message.runId))) return current
        }
        return loaded
      })
    } catch (error) {
      notify('error', `Could not load the chat: ${errorMessage(error)}`)
    }
  }, [api, notify])

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

  const startedRun = useCallback((runId: string) => {
    runIds.current.add(runId)
    setChat((current) => {
      if (!current || current.messages.some((message) => message.runId === runId)) return current
      return { ...current, messages: [...current.messages, streamingMessage(runId, new Date().toISOString())] }
    })
  }, [])

  const appendLocalUserMessage = useCallback((text: string) => {
    const message: ChatMessageView = { id: `local-${Date.now()}`, role: 'user', text, createdAt: new Date().toISOString() }
    setChat((current) => (current ? { ...current, messages: [...current.messages, message] } : current))
  }, [])

  const send = useCallback(
    async (draft: Draft) => {
      const id = chatIdRef.current
      if (!id) return false
      const text = messageTextOf(draft)
      appendLocalUserMessage(text)
      setSending(true)
      try {
        const { runId } = await api.sendMessage({
          chatId: id,
          text,
          attachments: draft.attachments.length ? draft.attachments : undefined,
          skill: draft.skill ?? undefined,
          tables: draft.tables.length ? draft.tables : undefined
        })
        startedRun(runId)
        return true
      } catch (error) {
        notify('error', errorMessage(error))
        void reload()
        return false
      } finally {
        setSending(false)
      }
    },
    [api, appendLocalUserMessage, notify, reload, startedRun]
  )

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

  const runAction = useCallback(
    async (action: () => Promise<{ runId: string }>, what: string) => {
      setSending(true)
      try {
        const { runId } = await action()
        startedRun(runId)
      } catch (error) {
        notify('error', `${what}: ${errorMessage(error)}`)
      } finally {
        setSending(false)
      }
    },
    [notify, startedRun]
  )

  const regenerate = useCallback(async () => {
    const id = chatIdRef.current
    if (!id) return
    setChat((current) => {
      if (!current) return current
      const messages = [...current.messages]
      while (messages.length && messages[messages.length - 1].role === 'assistant') messages.pop()
      return { ...current, messages }
    })
    await runAction(() => api.regenerate({ chatId: id }), 'Could not regenerate')
  }, [api, runAction])

  const editAndResend = useCallback(
    async (messageId: string, text: string) => {
      const id = chatIdRef.current
      if (!id) return
      setChat((current) => {
        if (!current) return current
        const index = current.messages.findIndex((message) => message.id === messageId)
        if (index < 0) return current
        const local: ChatMessageView = { id: `local-${Date.now()}`, role: 'user', text, createdAt: new Date().toISOString() }
        return { ...current, messages: [...current.messages.slice(0, index), local] }
      })
      await runAction(() => api.editAndResend({ chatId: id, messageId, text }), 'Could not resend')
    },
    [api, runAction]
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
