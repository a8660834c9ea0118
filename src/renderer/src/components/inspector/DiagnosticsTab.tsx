import type { Diagnostic } from '../../../../shared/prompt'

/** Problems with project files; the prompt was still built from everything else. */
export function DiagnosticsTab({ diagnostics }: { diagnostics: Diagnostic[] }): React.JSX.Element {
  if (diagnostics.length === 0) return <p className="muted">No problems: every project file that feeds the prompt was read.</p>
  return (
    <div>
      <p className="muted small">These files were skipped or partly used. The rest of the prompt was assembled normally.</p>
      <ul className="diagnostics" data-testid="diagnostics">
        {diagnostics.map((diagnostic, index) => (
          <li key={`${diagnostic.file}-${index}`}>
            <code className="diagnostic-file">{diagnostic.file}</code>
            <span>{diagnostic.problem}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
