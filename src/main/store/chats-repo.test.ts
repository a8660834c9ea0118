import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StoreNotFoundError } from './errors'
import type { Store } from './open-store'
import { openTempStore } from './test-store'

let store: Store
let cleanup: () => void
let projectId: number

beforeEach(() => {
  ;({ store, cleanup } = openTempStore())
  projectId = store.projects.ensure('/data/shop').id
})
afterEach(() => cleanup())

describe('chats', () => {
  it('creates, lists newest first, renames and deletes', () => {
    const first = store.chats.create(projectId, { title: 'Revenue by month' })
    const second = store.chats.create(projectId, { channel: 'slack' })
    expect(second).toMatchObject({ title: 'New chat', channel: 'slack', parentChatId: null })
    expect(store.chats.list(projectId).map((chat) => chat.id)).toEqual([second.id, first.id])
    store.chats.rename(first.id, 'Monthly revenue')
    expect(store.chats.list(projectId)[0]).toMatchObject({ id: first.id, title: 'Monthly revenue' })
    store.chats.delete(first.id)
    expect(store.chats.list(projectId).map((chat) => chat.id)).toEqual([second.id])
    expect(() => store.chats.get(first.id)).toThrow(StoreNotFoundError)
  })

  it('keeps projects apart', () => {
    const other = store.projects.ensure('/data/other').id
    store.chats.create(other, { title: 'elsewhere' })
    expect(store.chats.list(projectId)).toEqual([])
  })

  it('searches titles and message text, treating % and _ literally', () => {
    const byTitle = store.chats.create(projectId, { title: 'Churn analysis' })
    const byText = store.chats.create(projectId, { title: 'Untitled' })
    store.chats.addMessage({ chatId: byText.id, role: 'user', text: 'What drove CHURN in March?' })
    const percent = store.chats.create(projectId, { title: 'Growth 100% yoy' })
    expect(store.chats.list(projectId, 'churn').map((chat) => chat.id)).toEqual([byText.id, byTitle.id])
    expect(store.chats.list(projectId, '100%').map((chat) => chat.id)).toEqual([percent.id])
    expect(store.chats.list(projectId, '1_0')).toEqual([])
  })

  it('forks from a selection of a message, keeping the parent and channel', () => {
    const parent = store.chats.create(projectId, { title: 'Revenue', channel: 'whatsapp' })
    const message = store.chats.addMessage({ chatId: parent.id, role: 'assistant', text: 'Revenue rose 12% in Q3.' })
    const fork = store.chats.fork(parent.id, message.id, 'rose 12% in Q3')
    expect(fork).toMatchObject({ title: 'Fork: rose 12% in Q3', channel: 'whatsapp', parentChatId: parent.id })
    expect(store.chats.get(fork.id)).toMatchObject({ selection: 'rose 12% in Q3', messages: [] })
    expect(() => store.chats.fork(parent.id, 'no-such-message', 'x')).toThrow(StoreNotFoundError)
  })

  it('deleting a parent leaves its forks, unparented', () => {
    const parent = store.chats.create(projectId)
    const message = store.chats.addMessage({ chatId: parent.id, role: 'user', text: 'hello' })
    const fork = store.chats.fork(parent.id, message.id, 'hello')
    store.chats.delete(parent.id)
    expect(store.chats.summary(fork.id).parentChatId).toBeNull()
  })
})

describe('messages', () => {
  it('stores a streaming message, updates it as it grows and finishes it', () => {
    const chat = store.chats.create(projectId)
    const run = store.runs.start({ chatId: chat.id, model: 'qwen3', endpoint: 'http://127.0.0.1:11434/v1', testMode: false })
    const user = store.chats.addMessage({ chatId: chat.id, role: 'user', text: 'Top customers?' })
    const answer = store.chats.addMessage({ chatId: chat.id, role: 'assistant', text: '', status: 'streaming', runId: run.id })
    store.chats.updateMessage(answer.id, { text: 'The top', reasoning: 'Look at orders' })
    store.chats.updateMessage(answer.id, { text: 'The top customer is ACME.', status: 'done' })
    expect(store.chats.get(chat.id).messages).toEqual([
      user,
      {
        ...answer,
        text: 'The top customer is ACME.',
        reasoning: 'Look at orders',
        status: 'done',
        figures: { model: 'qwen3', firstTokenMs: null, totalMs: null, inputTokens: null, outputTokens: null }
      }
    ])
    expect(() => store.chats.updateMessage('missing', { text: 'x' })).toThrow(/no message with id missing/)
  })

  it('attaches the run’s tool calls to its assistant message', () => {
    const chat = store.chats.create(projectId)
    const run = store.runs.start({ chatId: chat.id, model: 'm', endpoint: 'e', testMode: true })
    store.chats.addMessage({ chatId: chat.id, role: 'user', text: 'How many orders?' })
    const answer = store.chats.addMessage({ chatId: chat.id, role: 'assistant', text: '42', runId: run.id })
    store.runs.startToolCall(run.id, { callId: 'call_0', name: 'execute_sql', args: { sql_query: 'SELECT 42' } })
    store.runs.finishToolCall(run.id, 'call_0', { ok: true, output: '42', data: { rows: [[42]] } })
    const detail = store.chats.get(chat.id)
    expect(detail.messages[1]).toEqual({
      ...answer,
      figures: { model: 'm', firstTokenMs: null, totalMs: null, inputTokens: null, outputTokens: null },
      toolCalls: [
        { callId: 'call_0', name: 'execute_sql', args: { sql_query: 'SELECT 42' }, ok: true, output: '42', data: { rows: [[42]] } }
      ]
    })
    expect(detail.messages[0].toolCalls).toBeUndefined()
  })

  it('returns the most recent messages oldest first', () => {
    const chat = store.chats.create(projectId)
    for (let i = 1; i <= 5; i++) store.chats.addMessage({ chatId: chat.id, role: i % 2 ? 'user' : 'assistant', text: `m${i}` })
    expect(store.chats.recentMessages(chat.id, 3).map((message) => message.text)).toEqual(['m3', 'm4', 'm5'])
  })

  it('keeps messages in insertion order even within one millisecond', () => {
    const frozen = openTempStore({ now: () => new Date('2026-01-01T00:00:00.000Z') })
    try {
      const id = frozen.store.projects.ensure('/p').id
      const chat = frozen.store.chats.create(id)
      for (const text of ['a', 'b', 'c']) frozen.store.chats.addMessage({ chatId: chat.id, role: 'user', text })
      expect(frozen.store.chats.messages(chat.id).map((message) => message.text)).toEqual(['a', 'b', 'c'])
    } finally {
      frozen.cleanup()
    }
  })
})

describe('answer versions (#16)', () => {
  function turn(chatId: string, question: string, answer: string, turnId?: string): void {
    const run = store.runs.start({ chatId, model: 'm', endpoint: 'e', testMode: false })
    store.chats.addMessage({ chatId, role: 'user', text: question, turnId })
    store.chats.addMessage({ chatId, role: 'assistant', text: answer, runId: run.id })
  }

  it('keeps a regenerated answer as a version, out of the live chat, its history and its search', () => {
    const chat = store.chats.create(projectId, { title: 'Versions' })
    turn(chat.id, 'First question', 'Old answer about churn')
    const question = store.chats.messages(chat.id)[0]
    const { turnId } = store.chats.archiveMessagesFrom(chat.id, question.id)
    expect(turnId).toBe(question.id)
    turn(chat.id, 'First question', 'New answer', turnId)

    const detail = store.chats.get(chat.id)
    expect(detail.messages.map((message) => [message.role, message.text, message.turnId])).toEqual([
      ['user', 'First question', turnId],
      ['assistant', 'New answer', undefined]
    ])
    expect(detail.versions?.map((version) => [version.turnId, version.messages.map((message) => message.text)])).toEqual([
      [turnId, ['First question', 'Old answer about churn']]
    ])
    expect(detail.versions?.[0].messages[1].figures?.model).toBe('m')
    expect(store.chats.messages(chat.id).map((message) => message.text)).toEqual(['First question', 'New answer'])
    expect(store.chats.recentMessages(chat.id, 10).map((message) => message.text)).toEqual(['First question', 'New answer'])
    expect(store.chats.list(projectId, 'churn')).toEqual([])
  })

  it('edits an earlier question: it and everything after become one version of that question', () => {
    const chat = store.chats.create(projectId)
    turn(chat.id, 'Q1', 'A1')
    turn(chat.id, 'Q2', 'A2')
    const first = store.chats.messages(chat.id)[0]
    const { turnId } = store.chats.archiveMessagesFrom(chat.id, first.id)
    turn(chat.id, 'Q1 edited', 'A1 again', turnId)
    const again = store.chats.archiveMessagesFrom(chat.id, store.chats.messages(chat.id)[0].id)
    expect(again.turnId).toBe(turnId)
    turn(chat.id, 'Q1 third', 'A1 third', turnId)

    const detail = store.chats.get(chat.id)
    expect(detail.messages.map((message) => message.text)).toEqual(['Q1 third', 'A1 third'])
    expect(detail.versions?.map((version) => version.messages.map((message) => message.text))).toEqual([
      ['Q1', 'A1', 'Q2', 'A2'],
      ['Q1 edited', 'A1 again']
    ])
    expect(detail.versions?.every((version) => version.turnId === turnId)).toBe(true)
  })

  it('refuses to archive from a message that is not a live question', () => {
    const chat = store.chats.create(projectId)
    turn(chat.id, 'Q', 'A')
    const answer = store.chats.messages(chat.id)[1]
    expect(() => store.chats.archiveMessagesFrom(chat.id, answer.id)).toThrow(StoreNotFoundError)
    expect(store.chats.messages(chat.id)).toHaveLength(2)
  })

  it('gives each answer its model, time to first token, total time and tokens', () => {
    const chat = store.chats.create(projectId)
    const run = store.runs.start({ chatId: chat.id, model: 'qwen3', endpoint: 'e', testMode: false })
    store.chats.addMessage({ chatId: chat.id, role: 'user', text: 'Q' })
    store.chats.addMessage({ chatId: chat.id, role: 'assistant', text: 'A', runId: run.id })
    store.runs.markFirstToken(run.id)
    store.runs.markFirstToken(run.id)
    store.runs.finish(run.id, { status: 'done', usage: { inputTokens: 5230, outputTokens: 214 } })
    // The temp store's clock ticks one second per reading: run start (2 s), two messages, first token (5 s), finish (7 s).
    expect(store.chats.get(chat.id).messages[1].figures).toEqual({ model: 'qwen3', firstTokenMs: 3000, totalMs: 5000, inputTokens: 5230, outputTokens: 214 })
    expect(store.chats.get(chat.id).messages[0].figures).toBeUndefined()
  })
})
