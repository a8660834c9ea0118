import { expect, it } from 'vitest'
import { TITLE_CHARS, titleFrom } from './chat-title'

it('puts a text on one line and keeps it whole when it fits', () => {
  expect(titleFrom('  How did\n revenue\tgrow?  ')).toBe('How did revenue grow?')
  expect(titleFrom('x'.repeat(TITLE_CHARS))).toBe('x'.repeat(TITLE_CHARS))
})

it('cuts a longer text to TITLE_CHARS characters, the ellipsis included', () => {
  const title = titleFrom('y'.repeat(TITLE_CHARS + 1))
  expect(title).toBe('y'.repeat(TITLE_CHARS - 1) + '…')
  expect(title).toHaveLength(TITLE_CHARS)
})
