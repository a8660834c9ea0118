import { useMemo } from 'react'
import type { ApiInputs } from '../../../../shared/api'
import { usePromptPreview } from '../../state/use-prompt-preview'
import { diffLines } from './line-diff'
import { LineDiffView } from './LineDiffView'

// What test mode changes in the system prompt: the same preview with test mode off and on, line by line.

const CONTEXT_LINES = 2

export function TestModeDiffTab({ input }: { input: ApiInputs['previewPrompt'] }): React.JSX.Element {
  const off = usePromptPreview({ ...input, testMode: false }, 60)
  const on = usePromptPreview({ ...input, testMode: true }, 60)
  const lines = useMemo(() => (off.preview && on.preview ? diffLines(off.preview.system, on.preview.system) : null), [off.preview, on.preview])
  if (off.error || on.error) return <p className="notice error">{off.error ?? on.error}</p>
  if (!lines) {
    return (
      <p className="muted">
        <span className="spinner small" /> Assembling both prompts…
      </p>
    )
  }
  const removed = lines.filter((line) => line.kind === 'removed').length
  const added = lines.filter((line) => line.kind === 'added').length
  return (
    <div className="diff-tab">
      <p className="small">
        System prompt with test mode <strong>off</strong> → <strong>on</strong>: <span className="diff-count removed">−{removed}</span> <span className="diff-count added">+{added}</span> lines.
        {removed + added === 0 && ' Test mode changes nothing in this prompt.'}
      </p>
      <LineDiffView lines={lines} contextLines={CONTEXT_LINES} testId="test-mode-diff" />
      <p className="muted small">Test mode also removes the clarification tool and never waits for the user.</p>
    </div>
  )
}
