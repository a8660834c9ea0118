import { useMemo } from 'react'
import type { ApiInputs } from '../../../../shared/api'
import { usePromptPreview } from '../../state/use-prompt-preview'
import { diffLines } from './line-diff'

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
  const near = new Set<number>()
  lines.forEach((line, index) => {
    if (line.kind !== 'same') for (let at = index - CONTEXT_LINES; at <= index + CONTEXT_LINES; at++) near.add(at)
  })
  return (
    <div className="diff-tab">
      <p className="small">
        System prompt with test mode <strong>off</strong> → <strong>on</strong>: <span className="diff-count removed">−{removed}</span> <span className="diff-count added">+{added}</span> lines.
        {removed + added === 0 && ' Test mode changes nothing in this prompt.'}
      </p>
      <pre className="diff" data-testid="test-mode-diff">
        {lines.map((line, index) =>
          near.has(index) ? (
            <div key={index} className={`diff-line ${line.kind}`}>
              <span className="diff-sign">{line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' '}</span>
              {line.text || ' '}
            </div>
          ) : near.has(index - 1) ? (
            <div key={index} className="diff-line gap">
              ⋯
            </div>
          ) : null
        )}
      </pre>
      <p className="muted small">Test mode also removes the clarification tool and never waits for the user.</p>
    </div>
  )
}
