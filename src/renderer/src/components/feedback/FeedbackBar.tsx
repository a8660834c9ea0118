import './feedback.css'
import { useEffect, useRef, useState } from 'react'
import type { ChatMessageView, FeedbackRating, TestCaseDraft } from '../../../../shared/api'
import { errorMessage } from '../../../../shared/error-message'
import { useApp } from '../../state/app-state'
import { ThumbIcon } from './ThumbIcon'

// 👍 / 👎 (drawn thumbs) under an answer, with an optional note. 👍 on an answer whose last step is a SQL result shows the
// test case it would make at once, so saving it is the second click; 👎 asks what the SQL should have
// been and shows that case the same way. A case is only written after the user has seen it.

/** The answer's last successful SQL, or null. */
function lastSql(message: ChatMessageView): string | null {
  for (const call of [...(message.toolCalls ?? [])].reverse()) {
    if (call.name === 'execute_sql' && call.ok === true && typeof call.args.sql_query === 'string') return call.args.sql_query
  }
  return null
}

export function FeedbackBar({ message }: { message: ChatMessageView }): React.JSX.Element {
  const { api, notify } = useApp()
  const [rating, setRating] = useState<FeedbackRating | null>(message.feedback?.rating ?? null)
  const [note, setNote] = useState(message.feedback?.note ?? '')
  const [open, setOpen] = useState(false)
  const [corrected, setCorrected] = useState(() => lastSql(message) ?? '')
  const [draft, setDraft] = useState<TestCaseDraft | null>(null)
  const [saved, setSaved] = useState<string | null>(message.feedback?.testCaseFile ?? null)
  const [busy, setBusy] = useState(false)
  const sql = lastSql(message)
  // The panel opens under the newest answer, often below the fold: bring it (and the case to review) into view.
  const panel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (open) panel.current?.scrollIntoView({ block: 'nearest' })
  }, [open, draft])

  async function attempt<T>(work: () => Promise<T>, what: string): Promise<T | null> {
    setBusy(true)
    try {
      return await work()
    } catch (error) {
      notify('error', `${what}: ${errorMessage(error)}`)
      return null
    } finally {
      setBusy(false)
    }
  }

  async function rate(next: FeedbackRating): Promise<void> {
    const stored = await attempt(() => api.setFeedback({ messageId: message.id, rating: next, note: note.trim() || null }), 'Could not save the feedback')
    if (!stored) return
    setRating(next)
    setOpen(true)
    setDraft(null)
    // A good answer with SQL: its case, ready to save.
    if (next === 'up' && sql) setDraft(await attempt(() => api.previewTestCase({ messageId: message.id }), 'Could not prepare the test case'))
  }

  async function review(): Promise<void> {
    setDraft(await attempt(() => api.previewTestCase({ messageId: message.id, ...(rating === 'down' && corrected.trim() ? { sql: corrected } : {}) }), 'Could not prepare the test case'))
  }

  async function save(): Promise<void> {
    const result = await attempt(() => api.saveTestCase({ messageId: message.id, ...(rating === 'down' && corrected.trim() ? { sql: corrected } : {}) }), 'Could not save the test case')
    if (!result) return
    setSaved(result.file)
    setDraft(null)
    notify('info', `Saved ${result.file}: glassbox test now checks it.`)
  }

  async function saveNote(): Promise<void> {
    if (!rating) return
    if (await attempt(() => api.setFeedback({ messageId: message.id, rating, note: note.trim() || null }), 'Could not save the note')) notify('info', 'Note saved.')
  }

  return (
    <span className="feedback-bar" data-testid="feedback-bar">
      <span className="feedback-buttons" role="group" aria-label="Was this answer right?">
        <button className={`icon-button ${rating === 'up' ? 'active' : ''}`} aria-pressed={rating === 'up'} aria-label="Good answer" title="Good answer" disabled={busy} onClick={() => void rate('up')} data-testid="feedback-up">
          <ThumbIcon />
        </button>
        <button className={`icon-button ${rating === 'down' ? 'active' : ''}`} aria-pressed={rating === 'down'} aria-label="Bad answer" title="Bad answer" disabled={busy} onClick={() => void rate('down')} data-testid="feedback-down">
          <ThumbIcon down />
        </button>
      </span>
      {saved && <span className="badge small" data-testid="feedback-saved">test case {saved}</span>}
      {open && rating && (
        <div className="feedback-panel" data-testid="feedback-panel" ref={panel}>
          <div className="row">
            <input className="input" placeholder={rating === 'up' ? 'What was good? (optional)' : 'What was wrong? (optional)'} aria-label="Feedback note" value={note} onChange={(event) => setNote(event.target.value)} data-testid="feedback-note" />
            <button className="button small" disabled={busy} onClick={() => void saveNote()}>
              Save note
            </button>
            <button className="button small ghost" onClick={() => (setOpen(false), setDraft(null))}>
              Close
            </button>
          </div>
          {rating === 'down' && (
            <label className="feedback-correction">
              <span className="small">What should it have been? The SQL that answers the question:</span>
              <textarea className="input code" rows={Math.min(10, corrected.split('\n').length + 1)} value={corrected} onChange={(event) => (setCorrected(event.target.value), setDraft(null))} data-testid="feedback-corrected-sql" />
            </label>
          )}
          {rating === 'up' && !sql && <p className="muted small">This answer ran no SQL, so it cannot become a test case.</p>}
          {draft ? (
            <div className="test-case-review" data-testid="test-case-review">
              <div className="small">
                Will write <code>{draft.file}</code>:
              </div>
              <pre className="code-block" data-testid="test-case-yaml">{draft.yaml}</pre>
              <button className="button small primary" disabled={busy} onClick={() => void save()} data-testid="save-test-case">
                Save as test case
              </button>
            </div>
          ) : (
            rating === 'down' && (
              <button className="button small" disabled={busy || !corrected.trim()} onClick={() => void review()} data-testid="review-test-case">
                Review test case
              </button>
            )
          )}
        </div>
      )}
    </span>
  )
}
