import { afterEach, beforeEach, expect, it } from 'vitest'
import type { PromptPreview } from '../../shared/prompt'
import type { Store } from './open-store'
import { openTempStore } from './test-store'

let store: Store
let cleanup: () => void
let chatId: string

beforeEach(() => {
  ;({ store, cleanup } = openTempStore())
  chatId = store.chats.create(store.projects.ensure('/data/shop').id).id
})
afterEach(() => cleanup())

const preview: PromptPreview = {
  system: '# Instructions\n…',
  user: 'Question: revenue?',
  messages: [
    { role: 'system', content: '# Instructions\n…', cache: true },
    { role: 'user', content: [{ type: 'text', text: 'Question: revenue?' }, { type: 'image_url', image_url: { url: 'data:x' } }] },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', args: { file_path: 'RULES.md' } }] },
    { role: 'tool', content: 'rules', toolCallId: 'c1' }
  ],
  sections: [{ id: 'instructions', title: 'Instructions', component: 'Instructions', sources: [], start: 0, end: 16, tokens: 4 }],
  memory: {
    included: [{ id: 1, category: 'global_rule', content: 'Always EUR.', tokens: 4, chatId: null, createdAt: '2026-01-01' }],
    dropped: [{ id: 2, category: 'personal_fact', content: 'Growth team.', tokens: 4, chatId: 'c', createdAt: '2026-01-01', reason: 'over budget: needs 4 tokens, 0 left' }]
  },
  diagnostics: [{ file: 'RULES.md', problem: 'not UTF-8' }],
  overrideMode: 'wrapped',
  budget: { contextWindow: 8192, reservedOutput: 1024, used: 900, parts: [{ name: 'system', tokens: 800 }], trimmed: [] }
}

it('starts and finishes a run with usage and stop reason', () => {
  const run = store.runs.start({ chatId, model: 'qwen3:8b', endpoint: 'http://127.0.0.1:11434/v1', testMode: true })
  expect(run).toMatchObject({ status: 'running', testMode: true, usage: null, endedAt: null })
  const done = store.runs.finish(run.id, { status: 'done', stopReason: 'answer', usage: { inputTokens: 900, outputTokens: 40 } })
  expect(done).toMatchObject({ status: 'done', stopReason: 'answer', usage: { inputTokens: 900, outputTokens: 40 } })
  expect(done.endedAt).not.toBeNull()
  expect(() => store.runs.finish('nope', { status: 'failed' })).toThrow(/no run with id nope/)
})

it('saves the exact prompt and reads it back identical, in the run detail', () => {
  const run = store.runs.start({ chatId, model: 'm', endpoint: 'e', testMode: false })
  expect(store.runs.get(run.id).prompt).toBeNull()
  store.runs.savePrompt(run.id, preview)
  expect(store.runs.get(run.id)).toMatchObject({ id: run.id, chatId, prompt: preview })
  store.runs.savePrompt(run.id, { ...preview, budget: null, overrideMode: 'runtime' })
  expect(store.runs.loadPrompt(run.id)).toEqual({ ...preview, budget: null, overrideMode: 'runtime' })
})

it('completes the latest unfinished call when a server reuses call ids across rounds', () => {
  const run = store.runs.start({ chatId, model: 'm', endpoint: 'e', testMode: false })
  store.runs.startToolCall(run.id, { callId: 'call_0', name: 'list', args: { path: '.' } })
  store.runs.finishToolCall(run.id, 'call_0', { ok: true, output: 'a, b' })
  store.runs.startToolCall(run.id, { callId: 'call_0', name: 'read', args: { file_path: 'a' } })
  store.runs.finishToolCall(run.id, 'call_0', { ok: false, output: 'not found' })
  expect(store.runs.toolCalls(run.id)).toEqual([
    { callId: 'call_0', name: 'list', args: { path: '.' }, ok: true, output: 'a, b' },
    { callId: 'call_0', name: 'read', args: { file_path: 'a' }, ok: false, output: 'not found' }
  ])
})

it('deleting a chat removes its runs, calls and snapshots', () => {
  const run = store.runs.start({ chatId, model: 'm', endpoint: 'e', testMode: false })
  store.runs.savePrompt(run.id, preview)
  store.runs.startToolCall(run.id, { callId: 'c', name: 'list', args: {} })
  store.chats.delete(chatId)
  for (const table of ['runs', 'tool_calls', 'prompt_snapshots'])
    expect(store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()).toBe(0)
})
