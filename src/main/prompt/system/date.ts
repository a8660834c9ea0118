// Today's date as the prompt states it, in the user's time zone. Formatters are costly to build, so one is
// kept per time zone.

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric'
    })
    formatters.set(timezone, formatter)
  }
  return formatter
}

/** True when Intl knows the time zone (e.g. `Europe/Paris`, `UTC`). */
export function isKnownTimezone(timezone: string): boolean {
  try {
    formatterFor(timezone)
    return true
  } catch {
    return false
  }
}

// The last date given, per time zone, with the minute it was for: every prompt asks (its cache key holds the
// date), and formatting through ICU costs more than the rest of a cached assembly. Time zone offsets are whole
// minutes, so the date cannot change within one.
const lastDates = new Map<string, { minute: number; text: string }>()

/** e.g. `Sunday, November 29, 2026`. An unknown time zone falls back to UTC (the caller reports it). */
export function formatPromptDate(now: Date, timezone: string): string {
  const zone = isKnownTimezone(timezone) ? timezone : 'UTC'
  const minute = Math.floor(now.getTime() / 60_000)
  const last = lastDates.get(zone)
  if (last && last.minute === minute) return last.text
  const text = formatterFor(zone).format(now)
  lastDates.set(zone, { minute, text })
  return text
}
