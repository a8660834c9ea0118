import { describe, expect, it } from 'vitest'
import { formatPromptDate } from './date'

describe('formatPromptDate', () => {
  it('gives the new date from the first minute after midnight, though the last one is remembered', () => {
    expect(formatPromptDate(new Date('2026-11-29T23:59:59.900Z'), 'UTC')).toBe('Sunday, November 29, 2026')
    expect(formatPromptDate(new Date('2026-11-30T00:00:00.100Z'), 'UTC')).toBe('Monday, November 30, 2026')
  })

  it('remembers the date per time zone', () => {
    const now = new Date('2026-11-29T23:30:00Z')
    expect(formatPromptDate(now, 'UTC')).toBe('Sunday, November 29, 2026')
    expect(formatPromptDate(now, 'Europe/Paris')).toBe('Monday, November 30, 2026')
    expect(formatPromptDate(now, 'UTC')).toBe('Sunday, November 29, 2026')
  })

  it('falls back to UTC for an unknown time zone', () => {
    expect(formatPromptDate(new Date('2026-11-29T23:30:00Z'), 'Mars/Olympus')).toBe('Sunday, November 29, 2026')
  })
})
