import { useEffect, useRef } from 'react'
import { SHORTCUTS } from '../../state/shortcuts'

/** The keyboard shortcuts, as a modal sheet (Esc or the button closes it and focus goes back). */
export function HelpSheet({ onClose }: { onClose(): void }): React.JSX.Element {
  const close = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null
    close.current?.focus()
    return () => before?.focus()
  }, [])
  return (
    <div className="sheet-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="help-sheet-title"
        data-testid="help-sheet"
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            event.stopPropagation()
            onClose()
          }
          if (event.key === 'Tab') {
            event.preventDefault()
            close.current?.focus()
          }
        }}
      >
        <header className="sheet-head">
          <h2 id="help-sheet-title">Keyboard shortcuts</h2>
          <button ref={close} className="button small" onClick={onClose}>
            Close
          </button>
        </header>
        <table className="shortcut-table">
          <tbody>
            {SHORTCUTS.map((shortcut) => (
              <tr key={shortcut.action}>
                <td>
                  <kbd>{shortcut.keys}</kbd>
                </td>
                <td>{shortcut.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="muted small">Every button and field is also reachable with Tab; the first Tab on a page offers to skip to the message box.</p>
      </div>
    </div>
  )
}
