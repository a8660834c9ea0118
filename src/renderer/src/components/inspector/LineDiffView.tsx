import type { DiffLine } from './line-diff'

// A line diff as the inspector and the Tests panel show it: changed lines with a little context around them,
// and a ⋯ where unchanged lines are left out.

export function LineDiffView({ lines, contextLines = 2, testId }: { lines: DiffLine[]; contextLines?: number; testId?: string }): React.JSX.Element {
  const near = new Set<number>()
  lines.forEach((line, index) => {
    if (line.kind !== 'same') for (let at = index - contextLines; at <= index + contextLines; at++) near.add(at)
  })
  return (
    <pre className="diff" data-testid={testId}>
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
  )
}
