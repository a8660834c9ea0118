import { useEffect, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import type { ApiInputs } from '../../../shared/api'
import type { PromptPreview } from '../../../shared/prompt'
import { useApp } from './app-state'
import { useNewestReply } from './newest-reply'
import { errorMessage } from '../../../shared/error-message'

// The prompt the next message would send, re-assembled as the user types (lightly debounced). Stale
// answers are dropped: only the latest request's preview is shown. With `measure`, each update is
// rendered synchronously and its cost recorded as a `inspector-update` performance measure.

export const INSPECTOR_UPDATE_MEASURE = 'inspector-update'

export interface PreviewState {
  preview: PromptPreview | null
  loading: boolean
  error: string | null
}

export function usePromptPreview(input: ApiInputs['previewPrompt'] | null, debounceMs = 120, measure = false): PreviewState {
  const { api, revision, project } = useApp()
  const [state, setState] = useState<PreviewState>({ preview: null, loading: false, error: null })
  const previews = useNewestReply()
  const key = input ? JSON.stringify(input) : null
  const inputRef = useRef(input)
  inputRef.current = input

  // Re-runs when the input's content (its JSON `key`) changes, not its identity.
  useEffect(() => {
    const current = inputRef.current
    if (!key || !current || !project) return
    const isNewest = previews.begin()
    setState((previous) => (previous.loading ? previous : { ...previous, loading: true }))
    const update = async (): Promise<void> => {
      try {
        const preview = await api.previewPrompt(current)
        if (!isNewest()) return
        const next = { preview, loading: false, error: null }
        if (!measure) return setState(next)
        const start = performance.now()
        flushSync(() => setState(next))
        performance.measure(INSPECTOR_UPDATE_MEASURE, { start, end: performance.now() })
      } catch (error) {
        if (isNewest()) setState((previous) => ({ ...previous, loading: false, error: errorMessage(error) }))
      }
    }
    const timer = window.setTimeout(() => void update(), debounceMs)
    return () => window.clearTimeout(timer)
  }, [key, api, revision, project, debounceMs, measure, previews])

  return state
}
