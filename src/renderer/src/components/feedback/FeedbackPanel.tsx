import './feedback.css'
import { useCallback, useEffect, useState } from 'react'
import type { FeedbackRating, FeedbackView } from '../../../../shared/api'
import { errorMessage } from '../../../../shared/error-message'
import { useApp } from '../../state/app-state'
import { feedbackToCsv } from '../../export/feedback-csv'
import { useExporter } from '../../export/use-exporter'
import { ThumbIcon } from './ThumbIcon'

// Every 👍 / 👎 of this project, newest first: what to improve (the notes on bad answers), which answers
// became test cases. Filter by rating; export the list as CSV.

type Filter = 'all' | FeedbackRating

export function FeedbackPanel(): React.JSX.Element {
  const { api, notify, project } = useApp()
  const exporter = useExporter()
  const [filter, setFilter] = useState<Filter>('all')
  const [list, setList] = useState<FeedbackView[] | null>(null)

  const load = useCallback(async () => {
    try {
      setList(await api.listFeedback(filter === 'all' ? {} : { rating: filter }))
    } catch (error) {
      notify('error', `Could not load the feedback: ${errorMessage(error)}`)
      setList([])
    }
  }, [api, filter, notify])
  useEffect(() => void load(), [load])

  const exportCsv = (): Promise<void> =>
    exporter(() => ({ suggestedName: `${project?.name ?? 'project'}-feedback.csv`, content: feedbackToCsv(list ?? []), encoding: 'utf8', filter: { name: 'CSV', extensions: ['csv'] } }))

  return (
    <section className="panel" data-testid="feedback-panel-list">
      <header className="panel-head">
        <h2>Feedback</h2>
        <p className="muted">Your thumbs up and down on answers. Notes on bad answers say what to improve; a good answer saved as a test case keeps it good.</p>
      </header>
      <div className="row feedback-filters" role="group" aria-label="Show">
        {(
          [
            ['all', 'All'],
            ['up', 'Good'],
            ['down', 'Bad']
          ] satisfies [Filter, string][]
        ).map(([id, label]) => (
          <button key={id} className={`button small ${filter === id ? 'primary' : ''}`} aria-pressed={filter === id} onClick={() => setFilter(id)} data-testid={`feedback-filter-${id}`}>
            {id !== 'all' && <ThumbIcon down={id === 'down'} />} {label}
          </button>
        ))}
        <button className="button small" disabled={!list || list.length === 0} onClick={() => void exportCsv()} data-testid="feedback-export">
          Export CSV
        </button>
      </div>
      {list === null ? (
        <p className="muted">
          <span className="spinner small" /> Loading…
        </p>
      ) : list.length === 0 ? (
        <p className="muted">{filter === 'all' ? 'No feedback yet: rate an answer with the thumbs under it.' : `No ${filter === 'up' ? 'good' : 'bad'} answers rated yet.`}</p>
      ) : (
        <ul className="feedback-list" data-testid="feedback-list">
          {list.map((entry) => (
            <li key={entry.id} className="feedback-row" data-rating={entry.rating}>
              <span className={`feedback-rating ${entry.rating}`} role="img" aria-label={entry.rating === 'up' ? 'Good answer' : 'Bad answer'}>
                <ThumbIcon down={entry.rating === 'down'} />
              </span>
              <div className="feedback-body">
                <div className="feedback-question">{entry.question}</div>
                {entry.note && <div className="feedback-note">{entry.note}</div>}
                {(entry.correctedSql ?? entry.sql) && <pre className="code-block small">{entry.correctedSql ?? entry.sql}</pre>}
                <div className="muted small">
                  {new Date(entry.updatedAt).toLocaleString()} · {entry.model ?? 'model unknown'}
                  {entry.database ? ` · ${entry.database}` : ''}
                  {entry.chatId === null ? ' · chat deleted' : ''}
                  {entry.testCaseFile && (
                    <>
                      {' · '}
                      <span className="badge small">{entry.testCaseFile}</span>
                    </>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
