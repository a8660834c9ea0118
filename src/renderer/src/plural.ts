/** "1 test", "2 tests", "1,234 tables": a count with its noun in the right number. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : pluralForm}`
}

/** A text's length for people: "820 characters", "24 k characters", "1.0 M characters". */
export function characterCount(chars: number): string {
  if (chars >= 1_000_000) return `${(chars / 1_000_000).toFixed(1)} M characters`
  if (chars >= 1_000) return `${Math.round(chars / 1000)} k characters`
  return plural(chars, 'character')
}
