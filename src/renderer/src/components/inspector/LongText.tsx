import { useState } from 'react'
import { DISPLAY_CHARS } from './format'

/** Preformatted text that shows the first DISPLAY_CHARS characters until asked for all of it. */
export function LongText({ text, className, testId }: { text: string; className?: string; testId?: string }): React.JSX.Element {
  const [all, setAll] = useState(false)
  const cut = !all && text.length > DISPLAY_CHARS
  return (
    <>
      <pre className={className ?? 'prompt-text'} data-testid={testId} tabIndex={0}>
        {cut ? text.slice(0, DISPLAY_CHARS) : text}
      </pre>
      {cut && (
        <button className="link-button small" onClick={() => setAll(true)}>
          … {(text.length - DISPLAY_CHARS).toLocaleString()} more characters — show all
        </button>
      )}
    </>
  )
}
