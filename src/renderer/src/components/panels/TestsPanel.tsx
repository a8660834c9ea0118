import './panels.css'
import './evaluation/evaluation.css'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { ApiInputs, EvaluationComparison, EvaluationDetail, EvaluationProgress, EvaluationSummary, EvaluationCaseInfo } from '../../../../shared/api'
import { useApp } from '../../state/app-state'
import { useNewestReply } from '../../state/newest-reply'
import { errorMessage } from '../../../../shared/error-message'
import { CaseDetail } from './evaluation/CaseDetail'
import { EvaluationHistory } from './evaluation/EvaluationHistory'
import { EvaluationMatrix, type MatrixSelection } from './evaluation/EvaluationMatrix'
import { hostOf, modelKey, seconds } from './evaluation/outcome'

// The project's tests/*.yml as an evaluation: pick one or more models, run the suite (one case at a time per
// server, cancellable, with progress), and read the cases × models matrix; open a cell for both tables, the
// SQL, the figures, the run in the inspector and the context audit. Earlier evaluations stay in the history,
// where two can be compared. The cases' chats stay here, out of the chat list.

type EvalModel = { endpoint: string; model: string }

export function TestsPanel({ onInspectRun }: { onInspectRun?: (runId: string) => void }): React.JSX.Element {
  const { api, project, onPush, notify, models, settings } = useApp()
  const [cases, setCases] = useState<EvaluationCaseInfo[]>([])
  const [history, setHistory] = useState<EvaluationSummary[]>([])
  const [shown, setShown] = useState<EvaluationDetail | null>(null)
  const [chosen, setChosen] = useState<string[] | null>(null)
  const [running, setRunning] = useState(false)
  const [progress, setProgress] = useState<EvaluationProgress | null>(null)
  const [selected, setSelected] = useState<MatrixSelection | null>(null)
  const [comparison, setComparison] = useState<EvaluationComparison | null>(null)

  const available = useMemo(() => {
    const list: EvalModel[] = []
    const add = (model: EvalModel): void => {
      if (!list.some((item) => modelKey(item) === modelKey(model))) list.push(model)
    }
    if (settings?.endpoint && settings.model) add({ endpoint: settings.endpoint, model: settings.model })
    for (const server of models ?? []) if (server.running) for (const model of server.models) add({ endpoint: server.baseUrl, model: model.id })
    return list
  }, [models, settings])
  const current = settings?.endpoint && settings.model ? modelKey({ endpoint: settings.endpoint, model: settings.model }) : null
  const picked = chosen ?? (current ? [current] : available.slice(0, 1).map(modelKey))

  const refreshHistory = useCallback(async (): Promise<EvaluationSummary[]> => {
    const list = await api.listEvaluations({})
    setHistory(list)
    return list
  }, [api])

  // Only the newest evaluation asked for is shown (a progress read of half the cases can land after the finished
  // one). A finished run's result counts as the newest of all.
  const shownReads = useNewestReply()
  const show = useCallback(
    async (evaluationId: string) => {
      const isNewest = shownReads.begin()
      const detail = await api.getEvaluation({ evaluationId })
      if (isNewest()) setShown(detail)
    },
    [api, shownReads]
  )
  const showFinished = useCallback(
    (detail: EvaluationDetail) => {
      shownReads.begin()
      setShown(detail)
    },
    [shownReads]
  )

  const open = useCallback(
    async (evaluationId: string) => {
      try {
        await show(evaluationId)
      } catch (error) {
        notify('error', `Could not open that evaluation: ${errorMessage(error)}`)
      }
    },
    [notify, show]
  )

  useEffect(() => {
    if (!project) return
    let stale = false
    void (async () => {
      try {
        const [list, earlier] = await Promise.all([api.listEvaluationCases({}), api.listEvaluations({})])
        if (stale) return
        setCases(list)
        setHistory(earlier)
        if (earlier[0]) await show(earlier[0].id)
      } catch (error) {
        if (!stale) notify('error', `Could not read the tests: ${errorMessage(error)}`)
      }
    })()
    return () => {
      stale = true
    }
  }, [api, project, notify, show])

  const shownId = useRef<string | null>(null)
  shownId.current = shown?.id ?? null
  useEffect(
    () =>
      onPush((event) => {
        if (event.channel !== 'evaluation-progress') return
        setProgress(event.progress)
        // A new evaluation replaces the matrix at once, then fills in as each case finishes.
        if (event.progress.result || event.progress.evaluationId !== shownId.current) {
          shownId.current = event.progress.evaluationId
          show(event.progress.evaluationId).catch(() => undefined)
        }
      }),
    [onPush, show]
  )

  async function run(input: ApiInputs['runEvaluation']): Promise<void> {
    setRunning(true)
    setProgress(null)
    setComparison(null)
    try {
      showFinished(await api.runEvaluation(input))
      await refreshHistory()
    } catch (error) {
      notify('error', `The evaluation could not run: ${errorMessage(error)}`)
    } finally {
      setRunning(false)
      setProgress(null)
    }
  }

  function runAll(): void {
    const wanted = picked.map((key) => available.find((item) => modelKey(item) === key)).filter((item): item is EvalModel => item !== undefined)
    setSelected(null)
    void run(wanted.length > 0 ? { models: wanted } : {})
  }

  async function compare(before: string, after: string): Promise<void> {
    try {
      setComparison(await api.compareEvaluations({ before, after }))
    } catch (error) {
      notify('error', `Could not compare: ${errorMessage(error)}`)
    }
  }

  const column = selected && shown ? shown.runs[selected.column] : null
  const result = selected && column ? column.cases.find((item) => item.file === selected.file) : undefined
  const live = running && progress && shown && progress.evaluationId === shown.id && !progress.result ? { file: progress.file, column: shown.runs.findIndex((item) => item.model === progress.model && item.endpoint === progress.endpoint) } : null
  const runnable = cases.length > 0

  return (
    <section className="panel tests-panel" data-testid="tests-panel">
      <header className="panel-head">
        <h2>Tests</h2>
        <p className="muted">
          Each case in <code>tests/*.yml</code> asks its prompt in test mode and compares the agent’s last query result with the expected SQL. Pick several models to see which one answers this project best.
        </p>
        <fieldset className="model-checklist" disabled={running}>
          <legend className="small">Models</legend>
          {available.length === 0 && <p className="muted small">No model server detected. Start one (see Settings) or set an endpoint.</p>}
          {available.map((item) => {
            const key = modelKey(item)
            return (
              <label key={key} className="model-option">
                <input type="checkbox" checked={picked.includes(key)} onChange={() => setChosen(picked.includes(key) ? picked.filter((other) => other !== key) : [...picked, key])} data-testid={`pick-model-${item.model}`} />
                {item.model} <span className="muted small">{hostOf(item.endpoint)}</span>
              </label>
            )
          })}
        </fieldset>
        <div className="row">
          <button className="button primary" onClick={runAll} disabled={running || !runnable || picked.length === 0} data-testid="run-tests">
            {running ? (
              <>
                <span className="spinner small" /> Running…
              </>
            ) : (
              `Run ${cases.length} ${cases.length === 1 ? 'test' : 'tests'}${picked.length > 1 ? ` × ${picked.length} models` : ''}`
            )}
          </button>
          {running && progress && (
            <button className="button stop" onClick={() => void api.cancelEvaluation({ evaluationId: progress.evaluationId })} data-testid="cancel-evaluation">
              Cancel
            </button>
          )}
          {running && progress && (
            <span className="muted small" role="status" data-testid="eval-progress">
              Case {progress.caseIndex} of {progress.caseCount} · model {progress.modelIndex} of {progress.modelCount} ({progress.model}) · {seconds(progress.elapsedMs)} elapsed
              {progress.estimateLeftMs !== null && ` · about ${seconds(progress.estimateLeftMs)} left`}
            </span>
          )}
          {!running && shown && (
            <span className="test-summary" data-testid="test-summary">
              {shown.runs.map((item) => (
                <span key={modelKey(item)} className="small">
                  {shown.runs.length > 1 && `${item.model}: `}
                  <span className="badge ok">{item.passed} passed</span> <span className="badge failed">{item.failed} failed</span> {item.errored > 0 && <span className="badge warn">{item.errored} errors</span>}
                </span>
              ))}
            </span>
          )}
        </div>
      </header>
      {!runnable && (
        <p className="muted">
          This project has no tests. Add one as <code>tests/my_case.yml</code> with <code>name</code>, <code>prompt</code> and <code>sql</code>.
        </p>
      )}
      {shown ? (
        <>
          <p className="muted small">
            Evaluation of {new Date(shown.startedAt).toLocaleString()}
            {shown.status === 'cancelled' && ' (cancelled)'}
            {shown.status === 'running' && ' (running)'}
          </p>
          <EvaluationMatrix
            evaluation={shown}
            selected={selected}
            running={running}
            live={live}
            onSelect={setSelected}
            onRerunColumn={(index) => {
              const target = shown.runs[index]
              if (target) void run({ models: [{ endpoint: target.endpoint, model: target.model }], evaluationId: shown.id })
            }}
          />
          {result && column && (
            <CaseDetail
              result={result}
              model={column.model}
              running={running}
              onInspect={(runId) => onInspectRun?.(runId)}
              onRerun={() => void run({ models: [{ endpoint: column.endpoint, model: column.model }], files: [result.file], evaluationId: shown.id })}
            />
          )}
        </>
      ) : (
        runnable && (
          <ul className="test-list">
            {cases.map((item) => (
              <li key={item.file} className={`test-case ${item.error ? 'error' : 'pending'}`}>
                <span className="badge">{item.error ? 'cannot run' : 'not run'}</span> <span className="test-name">{item.name}</span>
                <span className="muted small">{item.error ?? item.prompt}</span>
              </li>
            ))}
          </ul>
        )
      )}
      <EvaluationHistory history={history} shownId={shown?.id ?? null} comparison={comparison} onOpen={(id) => void open(id)} onCompare={(before, after) => void compare(before, after)} />
    </section>
  )
}
