import { formatNumber } from '../../state/locale'

export const formatTokens = (tokens: number): string => formatNumber(tokens)

export function percent(part: number, whole: number): string {
  if (whole <= 0) return '–'
  const value = (part / whole) * 100
  return `${value < 10 ? value.toFixed(1) : Math.round(value)}%`
}

/** Long texts are shown up to this many characters, with a way to show the rest. */
export const DISPLAY_CHARS = 60_000
