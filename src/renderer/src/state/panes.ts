import { useCallback, useEffect, useState } from 'react'

// Pane widths the user dragged, remembered per machine; and whether the inspector fits beside a chat
// column of at least MIN_CHAT_WIDTH, or collapses to a tab.

export interface PaneWidths {
  sidebar: number
  inspector: number
}

const KEY = 'glassbox-panes'
export const MIN_CHAT_WIDTH = 480
export const SIDEBAR_RANGE = { min: 180, max: 420 }
export const INSPECTOR_RANGE = { min: 300, max: 900 }
const DEFAULTS: PaneWidths = { sidebar: 248, inspector: 440 }

const clamp = (value: number, range: { min: number; max: number }): number => Math.round(Math.min(range.max, Math.max(range.min, value)))

export function loadPaneWidths(): PaneWidths {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null')
    if (typeof stored !== 'object' || stored === null) return DEFAULTS
    const sidebar = 'sidebar' in stored && typeof stored.sidebar === 'number' ? stored.sidebar : DEFAULTS.sidebar
    const inspector = 'inspector' in stored && typeof stored.inspector === 'number' ? stored.inspector : DEFAULTS.inspector
    return { sidebar: clamp(sidebar, SIDEBAR_RANGE), inspector: clamp(inspector, INSPECTOR_RANGE) }
  } catch {
    return DEFAULTS
  }
}

export type InspectorLayout = 'docked' | 'tab'

/** Docked at `inspector` px, squeezed to fit, or a tab when even its minimum would leave the chat too narrow. */
export function inspectorLayout(viewportWidth: number, widths: PaneWidths, tabWidth: number): { layout: InspectorLayout; inspectorWidth: number } {
  const room = viewportWidth - widths.sidebar - MIN_CHAT_WIDTH
  if (room >= widths.inspector) return { layout: 'docked', inspectorWidth: widths.inspector }
  if (room >= INSPECTOR_RANGE.min) return { layout: 'docked', inspectorWidth: room }
  return { layout: 'tab', inspectorWidth: Math.max(INSPECTOR_RANGE.min, Math.min(widths.inspector, viewportWidth - widths.sidebar - tabWidth)) }
}

export function usePaneWidths(): { widths: PaneWidths; resize(pane: keyof PaneWidths, width: number): void; viewportWidth: number } {
  const [widths, setWidths] = useState(loadPaneWidths)
  const [viewportWidth, setViewportWidth] = useState(() => window.innerWidth)
  useEffect(() => {
    const onResize = (): void => setViewportWidth(window.innerWidth)
    window.addEventListener('resize', onResize)
    return () => window.removeEventListener('resize', onResize)
  }, [])
  const resize = useCallback((pane: keyof PaneWidths, width: number) => {
    setWidths((current) => {
      const next = { ...current, [pane]: clamp(width, pane === 'sidebar' ? SIDEBAR_RANGE : INSPECTOR_RANGE) }
      try {
        localStorage.setItem(KEY, JSON.stringify(next))
      } catch {
        // Not remembered, still applied.
      }
      return next
    })
  }, [])
  return { widths, resize, viewportWidth }
}
