import './chat.css'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { ChatMessageView, ModelServerView, Settings } from '../../../../shared/api'
import { historyMessages } from '../../../../shared/history'
import { useApp } from '../../state/app-state'
import { usePromptPreview } from '../../state/use-prompt-preview'
import { EMPTY_DRAFT, isDraftEmpty, type Draft } from '../../state/draft'
import { readTable, type TableData } from '../../state/tool-data'
import type { ChatController } from '../../state/use-chat'
import { runShownInstead, showVersions, type RunPlace } from '../../state/versions'
import { ChatHeader } from './ChatHeader'
import { Composer } from './Composer'
import type { MessageActions } from './MessageItem'
import { MessageList } from './MessageList'
import { NoModelHelp } from './NoModelHelp'

// The centre pane: messages, the composer, and what to do when there is nothing yet.

interface Props {
  controller: ChatController
  draft: Draft
  onDraft(draft: Draft): void
  onInspectRun(runId: string, place?: RunPlace): void
  /** The run the inspector shows, and how to move it to the version of that answer now on screen. */
  inspectedRunId?: string | null
  onFollowRun?(runId: string, place?: RunPlace): void
  /** Opens a new chat with this question in its message box. */
  onStartWith(question: string): void
  /** Opens a new chat and sends this draft in it (typing at first open, before any chat exists). */
  onStartChat?(draft: Draft): void
  /** This chat was just opened to send its draft at once (see onStartChat). */
  autoSend?: boolean
  onAutoSent?(): void
}

const EXAMPLES = ['How did revenue evolve month by month?', 'Which 5 customers have the highest lifetime value?', 'What share of orders were paid with coupons?']

export function ChatView({ controller, draft, onDraft, onInspectRun, inspectedRunId, onFollowRun, onStartWith, onStartChat, autoSend, onAutoSent }: Props): React.JSX.Element {
  const { activeChatId, settings, models, newChat, project } = useApp()
  const examples = project?.examples && project.examples.length > 0 ? project.examples : EXAMPLES
  const { chat, loading, sending, activeRunId } = controller
  const busy = activeRunId !== null
  const hasModel = Boolean(settings?.model) || (models ?? []).some((server) => server.running && server.models.length > 0)
  const noServer = models !== null && !models.some((server) => server.running)

  // Charts find the rows of the query they name, in this answer or an earlier one.
  const tableMap = useMemo(() => {
    const map = new Map<string, TableData>()
    for (const message of [...(chat?.versions ?? []).flatMap((version) => version.messages), ...(chat?.messages ?? [])]) {
      for (const call of message.toolCalls ?? []) {
        const table = call.name === 'execute_sql' ? readTable(call.data) : null
        if (table?.queryId) map.set(table.queryId, table)
      }
    }
    return map
  }, [chat?.messages, chat?.versions])
  const tables = useRef(tableMap)
  tables.current = tableMap

  // Which version of each question is shown; a new version (regenerate, edit) shows the newest again.
  const [chosenVersions, setChosenVersions] = useState<Record<string, number>>({})
  const versionCount = chat?.versions?.length ?? 0
  useEffect(() => setChosenVersions({}), [chat?.id, versionCount])
  const shown = useMemo(() => showVersions(chat?.messages ?? [], chat?.versions, chosenVersions), [chat?.messages, chat?.versions, chosenVersions])
  const showVersion = useCallback((turnId: string, index: number) => setChosenVersions((chosen) => ({ ...chosen, [turnId]: index })), [])

  // Where an answer sits (chat, version), so the inspector can say which stored run it shows.
  const placeOf = useCallback(
    (runId: string): RunPlace | undefined => {
      if (!chat) return undefined
      const item = shown.find((candidate) => candidate.message.runId === runId)
      return { chatId: chat.id, chatTitle: chat.title, ...(item?.version ? { version: { index: item.version.index, count: item.version.count } } : {}) }
    },
    [chat, shown]
  )
  const placeRef = useRef(placeOf)
  placeRef.current = placeOf
  useEffect(() => {
    if (!chat || !inspectedRunId || !onFollowRun) return
    const instead = runShownInstead(shown, chat, inspectedRunId)
    if (instead) onFollowRun(instead, placeOf(instead))
  }, [chat, shown, inspectedRunId, onFollowRun, placeOf])

  const controllerRef = useRef(controller)
  controllerRef.current = controller
  const send = useCallback(
    (text: string) => {
      void controllerRef.current.send({ ...EMPTY_DRAFT, text })
    },
    []
  )
  const actions = useMemo<MessageActions>(
    () => ({
      regenerate: () => void controllerRef.current.regenerate(),
      editAndResend: (messageId, text) => void controllerRef.current.editAndResend(messageId, text),
      answerClarification: (answer) => void controllerRef.current.answerClarification(answer),
      send,
      inspectRun: (runId) => onInspectRun(runId, placeRef.current(runId)),
      lookupTable: (queryId) => tables.current.get(queryId) ?? null,
      showVersion
    }),
    [onInspectRun, send, showVersion]
  )
  const onFork = useCallback((messageId: string, selection: string) => void controllerRef.current.fork(messageId, selection), [])

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !event.defaultPrevented && controllerRef.current.activeRunId) void controllerRef.current.stop()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  async function submit(): Promise<void> {
    if (isDraftEmpty(draft) || sending) return
    const sent = draft
    onDraft(EMPTY_DRAFT)
    const ok = await controller.send(sent)
    if (!ok) onDraft(sent)
  }

  // A chat opened from the first-open composer sends its draft as soon as it is loaded: once per chat opened
  // to send, with whatever draft and sending state are current then (read through a ref, not re-run on them).
  const loadedChatId = chat?.id ?? null
  const autoSendState = useRef({ sending, onAutoSent, submit })
  autoSendState.current = { sending, onAutoSent, submit }
  useEffect(() => {
    const latest = autoSendState.current
    if (!autoSend || loadedChatId !== activeChatId || latest.sending) return
    latest.onAutoSent?.()
    void latest.submit()
  }, [autoSend, loadedChatId, activeChatId])

  // Where the next request's history starts: the same fit the inspector shows, for this chat.
  const historyFit = usePromptPreview(activeChatId && !busy ? { chatId: activeChatId, question: '' } : null, 300)
  const archivedThroughId = useMemo(() => lastArchivedMessage(chat?.messages ?? [], historyFit.preview?.budget?.archivedMessages ?? 0), [chat?.messages, historyFit.preview])
  const disabledReason = !hasModel ? 'Start a model server to chat (see above); the inspector already previews your prompt.' : null
  const modelWarning = undetectedModel(settings, models)

  if (!activeChatId) {
    return (
      <section className="chat-pane empty">
        <div className="empty-state">
          <h2>Ask {project?.name ?? 'your project'} a question</h2>
          <p className="muted">Answers come from SQL run on your local data by a model on this machine. The inspector on the right shows exactly what the model is sent.</p>
          {onStartChat && (
            <div className="empty-composer">
              <Composer draft={draft} onDraft={onDraft} busy={false} disabled={disabledReason} onSend={() => !isDraftEmpty(draft) && onStartChat(draft)} onStop={() => undefined} />
            </div>
          )}
          <button className="button ghost small" onClick={() => void newChat()} data-testid="start-chat">
            New empty chat
          </button>
          <div className="example-questions">
            <span className="muted small">or start with</span>
            {examples.map((example) => (
              <button key={example} className="chip" onClick={() => onStartWith(example)}>
                {example}
              </button>
            ))}
          </div>
          {noServer && <NoModelHelp />}
        </div>
      </section>
    )
  }

  const messages = chat?.messages ?? []
  return (
    <section className="chat-pane">
      {chat && <ChatHeader chat={chat} shown={shown} />}
      {chat?.selection && (
        <div className="fork-banner">
          <span className="muted">Forked from a selection:</span> “{chat.selection.length > 160 ? `${chat.selection.slice(0, 160)}…` : chat.selection}”
        </div>
      )}
      {loading && !chat ? (
        <div className="center-fill">
          <span className="spinner" /> Loading chat…
        </div>
      ) : messages.length === 0 ? (
        <div className="center-fill">
          <div className="empty-state compact">
            <h3>What would you like to know?</h3>
            <div className="example-questions">
              {examples.map((example) => (
                <button key={example} className="chip" onClick={() => onDraft({ ...draft, text: example })}>
                  {example}
                </button>
              ))}
            </div>
          </div>
        </div>
      ) : (
        chat && <MessageList chatId={chat.id} shown={shown} busy={busy} actions={actions} onFork={onFork} archivedThroughId={archivedThroughId} />
      )}
      {sending && !busy && (
        <div className="sending-line muted small" data-testid="sending">
          <span className="spinner small" /> Assembling the prompt and contacting the model…
        </div>
      )}
      {noServer && !hasModel && <NoModelHelp />}
      {modelWarning && (
        <div className="notice warn small" data-testid="model-warning">
          {modelWarning}
        </div>
      )}
      <Composer key={activeChatId} draft={draft} onDraft={onDraft} busy={busy} sending={sending} disabled={disabledReason} onSend={() => void submit()} onStop={() => void controller.stop()} />
    </section>
  )
}

/** Said before sending, when the chosen model is not among those its (running) server lists. */
function undetectedModel(settings: Settings | null, models: ModelServerView[] | null): string | null {
  if (!settings?.endpoint || !settings.model || !models) return null
  const server = models.find((candidate) => candidate.baseUrl === settings.endpoint && candidate.running)
  if (!server || server.models.some((model) => model.id === settings.model)) return null
  const served = server.models.map((model) => model.id)
  return `The model “${settings.model}” is not among those ${server.baseUrl} serves${served.length > 0 ? ` (${served.join(', ')})` : ''}; messages are sent to it anyway and will fail if the server does not have it. Pick a detected model in the model picker.`
}

/** The chat message that is the last of the `archived` oldest history messages (as the history is built). */
function lastArchivedMessage(messages: readonly ChatMessageView[], archived: number): string | null {
  if (archived <= 0) return null
  return historyMessages(messages)[archived - 1]?.id ?? null
}
