import { afterEach, describe, expect, it } from 'vitest'
import { machineTimezone } from './machine-timezone'

const original = process.env.TZ
afterEach(() => {
  if (original === undefined) delete process.env.TZ
  else process.env.TZ = original
})

describe('machineTimezone', () => {
  it('names the zone as Intl does, whether read from TZ or asked of Intl', () => {
    for (const zone of ['UTC', 'Etc/UTC', 'Universal', 'Zulu', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata']) {
      process.env.TZ = zone
      expect(machineTimezone(), zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone)
    }
  })

  it('names the zone as Intl does without TZ (this machine’s /etc/localtime)', () => {
    delete process.env.TZ
    expect(machineTimezone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone)
  })
})
