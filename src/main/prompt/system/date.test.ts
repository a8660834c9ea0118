import { describe, expect, it } from 'vitest'
import { formatPromptDate, utcDate } from './date'

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

describe('utcDate', () => {
  it('writes what the en-US formatter writes for UTC, on every day of two centuries and at the edges of a day', () => {
    const formatter = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' })
    const day = 24 * 60 * 60 * 1000
    for (let time = Date.UTC(1950, 0, 1); time < Date.UTC(2150, 0, 1); time += day) {
      for (const moment of [new Date(time), new Date(time + day - 1)]) expect(utcDate(moment)).toBe(formatter.format(moment))
    }
  })
})
