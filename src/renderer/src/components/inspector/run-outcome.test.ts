import { expect, it } from 'vitest'
import type { Budget } from '../../../../shared/prompt'
import { describeRunOutcome } from './run-outcome'

const budget: Budget = { contextWindow: 8192, reservedOutput: 2048, used: 5000, parts: [], trimmed: [] }

it('says a cut answer was cut at the output limit, and what the server counted', () => {
  expect(describeRunOutcome({ status: 'done', stopReason: 'length', usage: { inputTokens: 3210, outputTokens: 2048 } }, { ...budget, serverCounted: 3210 })).toBe(
    'Answer cut at the output limit (2,048 tokens). Prompt counted by the server before sending: 3,210 tokens. Tokens counted by the server: 3,210 in, 2,048 out.'
  )
})

it('says usage was not reported instead of showing 0/0', () => {
  expect(describeRunOutcome({ status: 'done', stopReason: 'answer', usage: null }, budget)).toBe('Token usage: not reported by the server.')
  expect(describeRunOutcome({ status: 'running', stopReason: null, usage: null }, budget)).toBeNull()
})
