import { expect, it } from 'vitest'
import { cutMiddle, normaliseMemoryContent } from './normalise'

it('collapses whitespace and adds a final period', () => {
  expect(normaliseMemoryContent('  Always   show\n revenue in EUR ')).toBe('Always show revenue in EUR.')
})

it('keeps sentence endings that are already there', () => {
  expect(normaliseMemoryContent('Never use pie charts!')).toBe('Never use pie charts!')
  expect(normaliseMemoryContent('The user says "ship it."')).toBe('The user says "ship it."')
  expect(normaliseMemoryContent('用户在增长团队。')).toBe('用户在增长团队。')
})

it('turns blank content into an empty string', () => {
  expect(normaliseMemoryContent(' \n\t ')).toBe('')
})

it('cuts the middle of long text to the limit and says so', () => {
  const text = 'a'.repeat(3000) + 'b'.repeat(3000)
  const cut = cutMiddle(text, 1250)
  expect(cut.length).toBeLessThanOrEqual(1250)
  expect(cut.startsWith('aaa')).toBe(true)
  expect(cut.endsWith('bbb')).toBe(true)
  expect(cut).toMatch(/\[…\d+ characters cut…\]/)
  expect(cutMiddle('short', 1250)).toBe('short')
})
