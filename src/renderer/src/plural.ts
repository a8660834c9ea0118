import { plural } from '../../shared/format-count'

/** A text's length for people: "820 characters", "24 k characters", "1.0 M characters". */
export function characterCount(chars: number): string {
  if (chars >= 1_000_000) return `${(chars / 1_000_000).toFixed(1)} M characters`
  if (chars >= 1_000) return `${Math.round(chars / 1000)} k characters`
  return plural(chars, 'character')
}
