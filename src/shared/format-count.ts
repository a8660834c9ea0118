// Whole numbers with en-US thousands separators (1,234,567), as `toLocaleString('en-US')` writes them but
// without ICU: its first use costs a short-lived command ~15 ms, more than rendering a prompt.

export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString('en-US')
  const digits = String(Math.abs(value))
  let grouped = ''
  for (let index = 0; index < digits.length; index++) {
    if (index > 0 && (digits.length - index) % 3 === 0) grouped += ','
    grouped += digits[index]
  }
  return value < 0 ? `-${grouped}` : grouped
}

/** "1 test", "2 tests", "1,234 tables": a count with its noun in the right number. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`
}
