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

/** e.g. `Sunday, November 29, 2026`. An unknown time zone falls back to UTC (the caller reports it). */
export function formatPromptDate(now: Date, timezone: string): string {
  return formatterFor(isKnownTimezone(timezone) ? timezone : 'UTC').format(now)
}
