import { afterEach, beforeEach, expect, it } from 'vitest'
import type { Store } from './open-store'
import { openTempStore } from './test-store'

let store: Store
let cleanup: () => void
beforeEach(() => ({ store, cleanup } = openTempStore()))
afterEach(() => cleanup())

it('records a test run case by case and reports it', () => {
  const projectId = store.projects.ensure('/data/shop').id
  const testRunId = store.testRuns.start(projectId)
  store.testRuns.addResult(testRunId, { name: 'orders', status: 'passed', expected: [[42]], actual: [[42]], sql: 'SELECT 42', runId: null, ms: 812.5, tokens: 900 })
  store.testRuns.addResult(testRunId, { name: 'revenue', status: 'error', expected: null, actual: null, sql: null, runId: null, ms: 3, tokens: 0, message: 'no execute_sql call' })
  store.testRuns.finish(testRunId)
  expect(store.testRuns.latest(projectId)).toBe(testRunId)
  const report = store.testRuns.report(testRunId)
  expect(report).toMatchObject({ passed: 1, failed: 0, errored: 1 })
  expect(report.cases[0]).toEqual({ name: 'orders', status: 'passed', expected: [[42]], actual: [[42]], sql: 'SELECT 42', runId: null, ms: 812.5, tokens: 900 })
  expect(report.cases[1].message).toBe('no execute_sql call')
})
