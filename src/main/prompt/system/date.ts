// Today's date as the prompt states it, in the user's time zone. Formatters are costly to build, so one is
// kept per time zone; a UTC date needs none (ICU's first formatter costs a short-lived command ~15 ms).

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
  if (timezone === 'UTC') return true
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
  const text = zone === 'UTC' && hasFourDigitYear(now) ? utcDate(now) : formatterFor(zone).format(now)
  lastDates.set(zone, { minute, text })
  return text
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** The UTC date as the en-US formatter writes it (`Sunday, November 29, 2026`). */
export function utcDate(now: Date): string {
  return `${WEEKDAYS[now.getUTCDay()]}, ${MONTHS[now.getUTCMonth()]} ${now.getUTCDate()}, ${now.getUTCFullYear()}`
}

/** Years 1000–9999, which the formatter writes as plain digits (no era, no padding). */
function hasFourDigitYear(now: Date): boolean {
  const year = now.getUTCFullYear()
  return year >= 1000 && year <= 9999
}
