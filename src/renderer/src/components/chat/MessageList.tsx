import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { ShownMessage } from '../../state/versions'
import { ForkIcon } from '../layout/Sidebar'
import { MessageItem, type MessageActions } from './MessageItem'

// The chat as a virtualised list: only the rows near the viewport are in the DOM, so a 5,000-message chat
// scrolls as smoothly as a short one. While the answer streams, the view follows it if the user was at
// the bottom. Selecting text in an answer offers to fork a new chat focused on it.

interface Props {
  chatId: string
  /** The messages as shown: the live chat, or an earlier version of a question from there on. */
  shown: ShownMessage[]
  busy: boolean
  actions: MessageActions
  onFork(messageId: string, selection: string): void
  /** The last message archived to fit the context window: the model no longer sees it or anything before. */
  archivedThroughId?: string | null
}

interface ForkOffer {
  messageId: string
  text: string
  /** The selected text is within the visible part of the list (the offer is shown only then). */
  inView: boolean
  top: number
  left: number
}

const BOTTOM_SLACK_PX = 80

function rowKey(message: ShownMessage['message'] | undefined): string | undefined {
  if (!message) return undefined
  return message.role === 'assistant' && message.runId ? `run:${message.runId}` : message.id
}

export const MessageList = memo(function MessageList({ chatId, shown, busy, actions, onFork, archivedThroughId }: Props): React.JSX.Element {
  const messages = shown
  const scrollRef = useRef<HTMLDivElement>(null)
  const atBottom = useRef(true)
  const [fork, setFork] = useState<ForkOffer | null>(null)
  const [awayFromEnd, setAwayFromEnd] = useState(false)
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 140,
    overscan: 3,
    // An answer keeps its row (and what the analyst expanded in it) when its live id gives way to the stored one.
    getItemKey: (index) => rowKey(messages[index]?.message) ?? index
  })

  const count = useRef(messages.length)
  count.current = messages.length
  // When another chat opens: start at its end.
  useLayoutEffect(() => {
    atBottom.current = true
    if (count.current > 0) virtualizer.scrollToIndex(count.current - 1, { align: 'end' })
  }, [chatId, virtualizer])

  const last = messages[messages.length - 1]?.message
  // A question just asked brings the view to the end, wherever the analyst had scrolled: the answer comes there.
  useLayoutEffect(() => {
    if (last?.role !== 'user' || !last.id.startsWith('local-')) return
    atBottom.current = true
    setAwayFromEnd(false)
    virtualizer.scrollToIndex(count.current - 1, { align: 'end' })
  }, [last?.id, last?.role, virtualizer])
  useEffect(() => {
    if (atBottom.current && messages.length > 0) {
      const element = scrollRef.current
      if (element) element.scrollTop = element.scrollHeight
    }
  }, [messages.length, last?.text, last?.toolCalls?.length, last?.status])

  // The fork offer sits above the selected text, so it moves with it when the list scrolls (the analyst's scroll
  // or the list settling as an answer is stored), hides while the selection is out of view, and goes with it.
  const offerFromSelection = useCallback((): ForkOffer | null => {
    const selection = window.getSelection()
    const text = selection?.toString().trim() ?? ''
    if (!selection || !text || selection.rangeCount === 0) return null
    const anchor = selection.anchorNode instanceof Element ? selection.anchorNode : selection.anchorNode?.parentElement
    const messageElement = anchor?.closest('[data-role="assistant"]')
    const container = scrollRef.current?.parentElement
    const messageId = messageElement?.getAttribute('data-message-id')
    if (!messageId || !container || messageId.startsWith('live-')) return null
    const rect = selection.getRangeAt(0).getBoundingClientRect()
    const box = container.getBoundingClientRect()
    const inView = rect.bottom >= box.top && rect.top <= box.bottom
    return { messageId, text, inView, top: rect.top - box.top - 40, left: Math.min(Math.max(8, rect.left - box.left + rect.width / 2 - 80), box.width - 200) }
  }, [])

  const onScroll = useCallback(() => {
    const element = scrollRef.current
    if (!element) return
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < BOTTOM_SLACK_PX
    setAwayFromEnd(!atBottom.current)
    setFork((offer) => offer && offerFromSelection())
  }, [offerFromSelection])

  const onMouseUp = useCallback(() => setFork(offerFromSelection()), [offerFromSelection])

  const items = virtualizer.getVirtualItems()
  return (
    <div className={`message-list-frame ${awayFromEnd ? 'with-latest' : ''}`}>
      <div className="message-list" ref={scrollRef} onScroll={onScroll} onMouseUp={onMouseUp} data-testid="message-list">
        <div className="message-list-inner" style={{ height: virtualizer.getTotalSize() }}>
          <div className="message-list-window" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
            {items.map((item) => (
              <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="message-row">
                <MessageItem
                  message={messages[item.index].message}
                  version={messages[item.index].version}
                  archived={messages[item.index].archived}
                  isLast={item.index === messages.length - 1}
                  busy={busy}
                  actions={actions}
                />
                {messages[item.index].message.id === archivedThroughId && (
                  <div className="archive-marker" data-testid="archive-marker" role="note">
                    The model no longer sees the messages above: they were archived to fit its context window (it can read them back with a tool).
                  </div>
                )}
              </div>
            ))}
          </div>
        </div>
      </div>
      {awayFromEnd && (
        <button
          className="jump-to-latest"
          title="Scroll to the latest message"
          onClick={() => {
            atBottom.current = true
            setAwayFromEnd(false)
            virtualizer.scrollToIndex(messages.length - 1, { align: 'end' })
          }}
        >
          ↓ Latest
        </button>
      )}
      {fork?.inView && (
        <button
          className="fork-button"
          style={{ top: Math.max(4, fork.top), left: fork.left }}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            onFork(fork.messageId, fork.text)
            setFork(null)
            window.getSelection()?.removeAllRanges()
          }}
        >
          <ForkIcon /> Fork chat from selection
        </button>
      )}
    </div>
  )
})
