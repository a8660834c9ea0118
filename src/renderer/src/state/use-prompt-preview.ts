import { useEffect, useRef, useState } from 'react'
import type { ApiInputs } from '../../../shared/api'
import type { PromptPreview } from '../../../shared/prompt'
import { messageOf, useApp } from './app-state'

// The prompt the next message would send, re-assembled as the user types (lightly debounced). Stale
// answers are dropped: only the latest request's preview is shown. A performance mark brackets each
// update so the inspector's render cost can be measured (`inspector-update`).

export const INSPECTOR_UPDATE_MARK = 'inspector-update-start'

export interface PreviewState {
  preview: PromptPreview | null
  loading: boolean
  error: string | null
}

export function usePromptPreview(input: ApiInputs['previewPrompt'] | null, debounceMs = 120): PreviewState {
  const { api, revision, project } = useApp()
  const [state, setState] = useState<PreviewState>({ preview: null, loading: false, error: null })
  const sequence = useRef(0)
  const key = input ? JSON.stringify(input) : null
  const inputRef = useRef(input)
  inputRef.current = input

  // Re-runs when the input's content (its JSON `key`) changes, not its identity.
  useEffect(() => {
    const current = inputRef.current
    if (!key || !current || !project) return
    const id = ++sequence.current
    setState((previous) => (previous.loading ? previous : { ...previous, loading: true }))
    const timer = window.setTimeout(async () => {
      try {
        const preview = await api.previewPrompt(current)
        if (id !== sequence.current) return
        performance.mark(INSPECTOR_UPDATE_MARK)
        setState({ preview, loading: false, error: null })
      } catch (error) {
        if (id === sequence.current) setState((previous) => ({ ...previous, loading: false, error: messageOf(error) }))
      }
    }, debounceMs)
    return () => window.clearTimeout(timer)
  }, [key, api, revision, project, debounceMs])

  return state
}
