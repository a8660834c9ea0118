import { readlinkSync } from 'node:fs'

// The machine's time zone, as `Intl.DateTimeFormat().resolvedOptions().timeZone` names it. On a machine set to
// UTC (servers, containers, CI) it is read from where the C library and ICU take it, TZ or /etc/localtime, so a
// one-shot command does not start ICU (~15 ms) to learn it; anything else is asked of Intl.

/** Names the C library and ICU read as UTC, which Intl calls `UTC`. */
const UTC_ZONE = /^(?:Etc\/)?(?:UTC|UCT|Universal|Zulu)$/
const LOCALTIME = '/etc/localtime'

export function machineTimezone(): string {
  return setToUtc() ? 'UTC' : Intl.DateTimeFormat().resolvedOptions().timeZone
}

function setToUtc(): boolean {
  const tz = process.env.TZ
  if (tz !== undefined) return UTC_ZONE.test(tz)
  if (process.platform === 'win32') return false
  try {
    const target = readlinkSync(LOCALTIME)
    const zone = /\/zoneinfo\/(.+)$/.exec(target)?.[1]
    return zone !== undefined && UTC_ZONE.test(zone)
  } catch {
    return false // not a link (a copied zone file): only Intl can tell
  }
}
