import { describe, expect, it } from 'vitest'
import type { ChatMessageView, ChatVersionView } from '../../../shared/api'
import { inspectorLayout, MIN_CHAT_WIDTH } from './panes'
import { shortcutOf } from './shortcuts'
import { runShownInstead, showVersions } from './versions'
import { modelName } from './model-name'
import { queryLabel, plainPieces } from '../components/common/plain-words'
import { niceTicks } from '../components/chat/BigSeriesChart'

const message = (id: string, role: 'user' | 'assistant', extra: Partial<ChatMessageView> = {}): ChatMessageView => ({ id, role, text: id, createdAt: '2026-01-01T00:00:00Z', ...extra })

describe('showVersions', () => {
  const live = [message('q0', 'user'), message('a0', 'assistant'), message('q1b', 'user', { turnId: 'q1' }), message('a1b', 'assistant')]
  const versions: ChatVersionView[] = [{ id: 'v1', turnId: 'q1', messages: [message('q1', 'user', { turnId: 'q1' }), message('a1', 'assistant'), message('q2', 'user'), message('a2', 'assistant')] }]

  it('shows the live chat with the newest version numbered on the question and its answer', () => {
    const shown = showVersions(live, versions, {})
    expect(shown.map((item) => [item.message.id, item.version?.index, item.version?.count, item.archived])).toEqual([
      ['q0', undefined, undefined, false],
      ['a0', undefined, undefined, false],
      ['q1b', 1, 2, false],
      ['a1b', 1, 2, false]
    ])
  })

  it('shows an earlier version and what followed it then, read-only', () => {
    const shown = showVersions(live, versions, { q1: 0 })
    expect(shown.map((item) => [item.message.id, item.version?.index, item.archived])).toEqual([
      ['q0', undefined, false],
      ['a0', undefined, false],
      ['q1', 0, true],
      ['a1', 0, true],
      ['q2', undefined, true],
      ['a2', undefined, true]
    ])
  })

  it('tells the inspector which run to show when another version of the inspected answer is shown', () => {
    const withRuns = live.map((item) => (item.role === 'assistant' ? { ...item, runId: `run-${item.id}` } : item))
    const earlier: ChatVersionView[] = versions.map((version) => ({ ...version, messages: version.messages.map((item) => (item.role === 'assistant' ? { ...item, runId: `run-${item.id}` } : item)) }))
    const chat = { messages: withRuns, versions: earlier }
    // Version 2 inspected, then ‹: the inspector moves to version 1's run, and back again with ›.
    expect(runShownInstead(showVersions(withRuns, earlier, { q1: 0 }), chat, 'run-a1b')).toBe('run-a1')
    expect(runShownInstead(showVersions(withRuns, earlier, {}), chat, 'run-a1')).toBe('run-a1b')
    // Already shown, or an answer with one version only: nothing changes.
    expect(runShownInstead(showVersions(withRuns, earlier, {}), chat, 'run-a1b')).toBeNull()
    expect(runShownInstead(showVersions(withRuns, earlier, { q1: 0 }), chat, 'run-a0')).toBeNull()
  })
})

describe('modelName', () => {
  it('shows a served .gguf path as the model’s name, and any other id as it is', () => {
    expect(modelName('/home/analyst/models/qwen2.5-0.5b-instruct-q4_k_m.gguf')).toBe('qwen2.5-0.5b-instruct-q4_k_m')
    expect(modelName('C:\\models\\Llama-3.1-8B.Q4.GGUF')).toBe('Llama-3.1-8B.Q4')
    expect(modelName('qwen2.5:7b')).toBe('qwen2.5:7b')
    expect(modelName('Qwen/Qwen2.5-7B-Instruct')).toBe('Qwen2.5-7B-Instruct')
  })
})

describe('inspectorLayout', () => {
  it('keeps the chat at least 480 px wide at 1024 px by collapsing the inspector to a tab', () => {
    const widths = { sidebar: 248, inspector: 440 }
    expect(inspectorLayout(1440, widths, 34)).toEqual({ layout: 'docked', inspectorWidth: 440 })
    expect(inspectorLayout(1100, widths, 34)).toEqual({ layout: 'docked', inspectorWidth: 1100 - 248 - MIN_CHAT_WIDTH })
    expect(inspectorLayout(1024, widths, 34).layout).toBe('tab')
  })
})

describe('shortcutOf', () => {
  const key = (over: Partial<Omit<KeyboardEvent, 'target'>> & { target?: unknown }): Parameters<typeof shortcutOf>[0] => ({ key: '', code: '', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, target: null, ...over })
  it('maps the app shortcuts and ignores ? while typing', () => {
    expect(shortcutOf(key({ code: 'KeyO', key: 'O', ctrlKey: true, shiftKey: true }))).toBe('newChat')
    expect(shortcutOf(key({ code: 'KeyI', key: 'i', ctrlKey: true }))).toBe('toggleInspector')
    expect(shortcutOf(key({ key: 'Escape', shiftKey: true }))).toBe('focusComposer')
    expect(shortcutOf(key({ key: '?', shiftKey: true }))).toBe('help')
    expect(shortcutOf(key({ key: '?', shiftKey: true, target: { tagName: 'TEXTAREA' } }))).toBeNull()
    expect(shortcutOf(key({ key: 'a' }))).toBeNull()
  })
})

describe('plain words', () => {
  it('says query ids and archive ids in words', () => {
    expect(queryLabel('0776da_q1')).toBe('query 1')
    expect(plainPieces('Archived the 4 oldest messages as chat:1f2e#archived-history; the model can read them.')).toEqual([
      { text: 'Archived the 4 oldest messages as ' },
      { text: 'the archive of earlier messages', id: 'chat:1f2e#archived-history' },
      { text: '; the model can read them.' }
    ])
  })
})

describe('niceTicks', () => {
  it('covers the range with round steps', () => {
    expect(niceTicks(0, 9870)).toEqual([0, 2000, 4000, 6000, 8000, 10000])
    expect(niceTicks(-3, 12)).toEqual([-5, 0, 5, 10, 15])
  })
})
