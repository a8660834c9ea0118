import { afterEach, beforeEach, expect, it } from 'vitest'
import type { EvaluationCaseResult } from '../../shared/api'
import type { Store } from './open-store'
import { openTempStore } from './test-store'

let store: Store
let cleanup: () => void
beforeEach(() => ({ store, cleanup } = openTempStore()))
afterEach(() => cleanup())

const passed: EvaluationCaseResult = {
  file: 'tests/orders.yml',
  name: 'orders',
  status: 'passed',
  outcome: 'passed',
  expected: [[42]],
  actual: [[42]],
  sql: 'SELECT 42',
  runId: null,
  ms: 812.5,
  tokens: 900,
  inputTokens: 800,
  outputTokens: 100,
  rounds: 2,
  firstTokenMs: 120,
  audit: null
}

it('stores an evaluation per model and case, replaces a re-run cell, and lists it with its figures', () => {
  const projectId = store.projects.ensure('/data/shop').id
  const id = store.evaluations.start(projectId)
  const a = store.evaluations.addModel(id, { model: 'a', endpoint: 'http://x/v1', systemPrompt: 'You are Glassbox.' })
  const b = store.evaluations.addModel(id, { model: 'b', endpoint: 'http://x/v1', systemPrompt: 'You are Glassbox.' })
  const audit = { filesRead: ['RULES.md'], tables: [{ table: 'main.orders', dir: 'databases/x', unread: ['columns.md'] }] }
  store.evaluations.putCase(a.id, { ...passed, outcome: 'failed: wrong result', status: 'failed', message: 'expected 1 row, got 2', audit })
  store.evaluations.putCase(b.id, passed)
  store.evaluations.finish(id, 'done')
  expect(store.evaluations.list(projectId)).toEqual([
    {
      id,
      status: 'done',
      startedAt: expect.any(String),
      endedAt: expect.any(String),
      models: [
        { model: 'a', endpoint: 'http://x/v1', passed: 0, total: 1, systemPromptHash: expect.stringMatching(/^[0-9a-f]{16}$/) },
        { model: 'b', endpoint: 'http://x/v1', passed: 1, total: 1, systemPromptHash: expect.stringMatching(/^[0-9a-f]{16}$/) }
      ]
    }
  ])
  const [runA, runB] = store.evaluations.runs(id)
  expect(runA.cases[0]).toEqual({ ...passed, outcome: 'failed: wrong result', status: 'failed', message: 'expected 1 row, got 2', audit })
  expect(runB).toMatchObject({ passed: 1, failed: 0, errored: 0, systemPrompt: 'You are Glassbox.' })

  store.evaluations.reopen(id)
  expect(store.evaluations.addModel(id, { model: 'a', endpoint: 'http://x/v1', systemPrompt: 'You are Glassbox.' }).id).toBe(a.id)
  store.evaluations.putCase(a.id, passed)
  store.evaluations.finish(id, 'done')
  expect(store.evaluations.runs(id)[0].cases).toEqual([passed])
})

it('keeps evaluation chats out of the chat list', () => {
  const projectId = store.projects.ensure('/data/shop').id
  const mine = store.chats.create(projectId, { title: 'Mine' })
  store.chats.create(projectId, { title: 'Test: orders', purpose: 'evaluation' })
  expect(store.chats.list(projectId).map((chat) => chat.id)).toEqual([mine.id])
  expect(store.chats.list(projectId, 'orders')).toEqual([])
})

it('keeps each case\'s verdict, rule, databases, matched SQL and category, and leaves them out for cases stored without', () => {
  const projectId = store.projects.ensure('/data/shop').id
  const id = store.evaluations.start(projectId)
  const model = store.evaluations.addModel(id, { model: 'a', endpoint: 'http://x/v1', systemPrompt: 'p' })
  const judged: EvaluationCaseResult = {
    ...passed,
    verdict: 'passed: same rows in any order (the question asks for none); matched the 2nd acceptable SQL; both ran on academic',
    rule: 'rows-any-order',
    databases: { expected: 'academic', actual: 'academic' },
    matchedSql: 2,
    category: 'join'
  }
  store.evaluations.putCase(model.id, judged)
  store.evaluations.putCase(model.id, { ...passed, file: 'tests/older.yml', name: 'older' })
  const [older, orders] = store.evaluations.runs(id)[0].cases
  expect(orders).toEqual(judged)
  expect(older).toEqual({ ...passed, file: 'tests/older.yml', name: 'older' })
  expect(Object.keys(older)).not.toContain('verdict')
})
