import { useState } from 'react'

/** An inline title editor: Enter saves, Escape cancels (onDone(null)), leaving the field saves. */
export function RenameField({ title, onDone }: { title: string; onDone(title: string | null): void }): React.JSX.Element {
  const [value, setValue] = useState(title)
  const [done, setDone] = useState(false)
  const finish = (result: string | null): void => {
    if (done) return
    setDone(true)
    onDone(result === null || result.trim() === '' ? null : result.trim())
  }
  return (
    <input
      className="input rename-field"
      value={value}
      autoFocus
      maxLength={500}
      aria-label="Chat title"
      onFocus={(event) => event.target.select()}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault()
          finish(value)
        }
        if (event.key === 'Escape') {
          event.preventDefault()
          event.stopPropagation()
          finish(null)
        }
      }}
      onBlur={() => finish(value)}
      data-testid="rename-field"
    />
  )
}
