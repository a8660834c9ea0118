import { useSyncExternalStore } from 'react'

// Light or dark: follows the system (`prefers-color-scheme`) unless the user picked one in Settings.
// Stored per machine (a display preference, not project data) and applied before the first paint.

export type ThemeChoice = 'system' | 'light' | 'dark'
const KEY = 'glassbox-theme'
const DARK = '(prefers-color-scheme: dark)'

let choice: ThemeChoice = 'system'
const listeners = new Set<() => void>()

function loadThemeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(KEY)
    return stored === 'light' || stored === 'dark' ? stored : 'system'
  } catch {
    return 'system'
  }
}

export function resolveTheme(wanted: ThemeChoice): 'light' | 'dark' {
  if (wanted !== 'system') return wanted
  return window.matchMedia?.(DARK).matches ? 'dark' : 'light'
}

function apply(): void {
  const theme = resolveTheme(choice)
  document.documentElement.dataset.theme = theme
  document.documentElement.style.colorScheme = theme
}

/** Applies the saved choice and keeps following the system while the choice is "system". Call once. */
export function startTheme(): void {
  choice = loadThemeChoice()
  apply()
  window.matchMedia?.(DARK).addEventListener('change', () => choice === 'system' && apply())
}

export function setThemeChoice(next: ThemeChoice): void {
  choice = next
  try {
    localStorage.setItem(KEY, next)
  } catch {
    // Storage may be unavailable; the choice still applies for this session.
  }
  apply()
  for (const listener of listeners) listener()
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => choice
  )
}
