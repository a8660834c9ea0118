import { parseArgs } from 'node:util'
import type { EvaluationCaseResult, EvaluationComparison, EvaluationDetail, EvaluationProgress, EvaluationSummary } from '../../shared/api'
import { jsonLine, type CliIo, type CommandOptions } from './io'
import { listModels } from '../agent/discovery'
import { normalizeBaseUrl } from '../agent/endpoints'
import { createGlassbox } from '../app/create-glassbox'
import { loadTestCases } from '../eval/test-cases'
import { CliError } from './cli-error'
import { cliTrust, requireProject, withGlassbox } from './options'

// `glassbox test --project DIR [--endpoint URL]… [--model NAME | --model URL#NAME]… [--timeout S] [--json]`:
// runs tests/*.yml in test mode for each model through the same services as the Tests panel, so every
// case's run and prompts are stored, and the evaluation with them. With several models: a matrix.
// `--history` lists the project's evaluations; `--compare BEFORE AFTER` compares two; `--show ID` prints one.
// Ctrl-C cancels the evaluation (the running case stops; what finished stays stored).
// Exit code 0 only when every case of every model passed.

/** The options it takes (COMMAND_USAGE in ../cli.ts lists the same). */
export const OPTIONS = {
  project: { type: 'string' },
  endpoint: { type: 'string', multiple: true },
  model: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  history: { type: 'boolean', default: false },
  compare: { type: 'boolean', default: false },
  show: { type: 'string' },
  'data-dir': { type: 'string' },
  'trust-project': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false }
} satisfies CommandOptions

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true
  })
  const root = requireProject(values.project)
  const print = (value: unknown): void => io.stdout(jsonLine(value))
  const endpoints = (values.endpoint ?? (process.env.GLASSBOX_ENDPOINT ? [process.env.GLASSBOX_ENDPOINT] : [])).map(normalizeBaseUrl)
  const open = () => createGlassbox({
    dataDir: values['data-dir'],
    projectPath: root,
    endpoint: endpoints[0],
    model: values.model?.length === 1 && !values.model[0].includes('#') ? values.model[0] : undefined,
    watch: false,
    extractMemories: false,
    trust: cliTrust(values['trust-project'], io)
  })

  if (values.history || values.compare || values.show) {
    return withGlassbox(open(), async (glassbox) => {
      if (values.history) {
        const list = await glassbox.listEvaluations({})
        if (values.json) print(list)
        else io.stdout(list.length === 0 ? 'No evaluations yet.\n' : list.map(historyLine).join(''))
      } else if (values.show) {
        const detail = await glassbox.getEvaluation({ evaluationId: values.show })
        if (values.json) print(detail)
        else io.stdout(matrixText(detail) + auditsText(detail))
      } else {
        if (positionals.length !== 2) throw new CliError('--compare takes two evaluation ids: BEFORE AFTER (see --history)')
        const comparison = await glassbox.compareEvaluations({ before: positionals[0], after: positionals[1] })
        if (values.json) print(comparison)
        else io.stdout(comparisonText(comparison))
      }
      return 0
    })
  }

  if (positionals.length > 0) throw new CliError(`unexpected argument '${positionals[0]}'`)
  if ((await loadTestCases(root)).length === 0) throw new CliError(`no test cases: ${root}/tests/ has no .yml files`)
  const timeoutSeconds = values.timeout === undefined ? undefined : Number(values.timeout)
  if (timeoutSeconds !== undefined && (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1)) throw new CliError('--timeout takes a whole number of seconds')
  const models = await modelsToEvaluate(values.model ?? [], endpoints)
  return withGlassbox(open(), async (glassbox) => {
    await glassbox.session().mcpLoaded
    let evaluationId: string | null = null
    const several = (models?.length ?? 1) > 1
    glassbox.subscribe((event) => {
      if (event.channel !== 'evaluation-progress') return
      evaluationId = event.progress.evaluationId
      if (values.json) return
      if (event.progress.result) io.stdout(resultLine(event.progress, event.progress.result, several))
      else io.stderr(progressLine(event.progress))
    })
    const cancel = (): void => {
      if (evaluationId) void glassbox.cancelEvaluation({ evaluationId })
    }
    process.once('SIGINT', cancel)
    let detail: EvaluationDetail
    try {
      detail = await glassbox.runEvaluation({ models, timeoutSeconds })
    } finally {
      process.removeListener('SIGINT', cancel)
    }
    const runs = detail.runs.map(({ model, endpoint, passed, failed, errored, cases }) => ({ model, endpoint, passed, failed, errored, cases }))
    if (values.json) {
      // One model: the shape `test --json` has always had (plus the evaluation id); several: runs and the matrix.
      if (runs.length === 1) print({ evaluationId: detail.id, passed: runs[0].passed, failed: runs[0].failed, errored: runs[0].errored, cases: runs[0].cases })
      else print({ evaluationId: detail.id, runs, matrix: detail.matrix })
    } else if (runs.length === 1) {
      io.stdout(`${runs[0].passed} passed, ${runs[0].failed} failed, ${runs[0].errored} errored\n`)
      io.stdout(`Stored as evaluation ${detail.id}${detail.status === 'cancelled' ? ' (cancelled)' : ''}.\n`)
    } else {
      io.stdout(matrixText(detail))
    }
    return detail.status === 'done' && runs.every((item) => item.failed + item.errored === 0) ? 0 : 1
  })
}

/** `--model URL#name` names its server; a plain name goes to the one --endpoint, or to whichever of several serves it. */
async function modelsToEvaluate(names: string[], endpoints: string[]): Promise<{ endpoint?: string; model: string }[] | undefined> {
  if (names.length === 0) return undefined // the configured model (or the one --endpoint serves first)
  const served = new Map<string, Promise<string[]>>()
  const modelsOf = (endpoint: string): Promise<string[]> => {
    let pending = served.get(endpoint)
    if (!pending) served.set(endpoint, (pending = listModels(endpoint, { timeoutMs: 3000 }).then((list) => list.map((item) => item.id), () => [])))
    return pending
  }
  return Promise.all(
    names.map(async (name) => {
      const hash = name.lastIndexOf('#')
      if (hash > 0) {
        const model = name.slice(hash + 1)
        if (!model) throw new CliError(`--model ${name}: the model name after # is missing`)
        return { endpoint: normalizeBaseUrl(name.slice(0, hash)), model }
      }
      if (endpoints.length === 1) return { endpoint: endpoints[0], model: name }
      for (const endpoint of endpoints) if ((await modelsOf(endpoint)).includes(name)) return { endpoint, model: name }
      if (endpoints.length > 1) throw new CliError(`--model ${name}: none of the endpoints serves it (${endpoints.join(', ')}); use --model URL#${name}`)
      return { model: name }
    })
  )
}

const SHORT: Record<EvaluationCaseResult['outcome'], string> = {
  passed: 'PASS',
  'failed: wrong result': 'FAIL',
  'failed: no SQL': 'FAIL',
  'error: tool': 'ERROR',
  'error: loop guard': 'ERROR',
  'error: round limit': 'ERROR',
  timeout: 'ERROR',
  'error: run': 'ERROR'
}

function resultLine(progress: EvaluationProgress, result: EvaluationCaseResult, several: boolean): string {
  const where = several ? `[${progress.model} ${progress.modelIndex}/${progress.modelCount}] ` : ''
  const detail = result.message ? `: ${result.message}` : ''
  // 'error: run' says what failed in its message; the other classes name themselves.
  const kind = result.outcome === 'passed' || result.outcome === 'error: run' ? '' : ` [${result.outcome}]`
  return `${where}${SHORT[result.outcome]} ${result.name} (${Math.round(result.ms)} ms, ${result.tokens} tokens)${kind}${detail}\n${verdictLine(result)}${auditLine(result)}`
}

/** The rule that decided a compared answer (an error's message already says what went wrong). */
function verdictLine(result: EvaluationCaseResult): string {
  const compared = result.outcome === 'passed' || result.outcome === 'failed: wrong result'
  return compared && result.verdict ? `  verdict: ${result.verdict}\n` : ''
}

function auditLine(result: EvaluationCaseResult): string {
  if (!result.audit || result.outcome === 'passed') return ''
  const unread = result.audit.tables.filter((table) => table.unread.length > 0).map((table) => `${table.unread.join(', ')} of ${table.table}`)
  const read = result.audit.filesRead.length > 0 ? result.audit.filesRead.join(', ') : 'none'
  return `  context read: ${read}${unread.length > 0 ? `; never read: ${unread.join('; ')}` : ''}\n`
}

function progressLine(progress: EvaluationProgress): string {
  const left = progress.estimateLeftMs === null ? '' : ` · about ${seconds(progress.estimateLeftMs)} left`
  return `… case ${progress.caseIndex} of ${progress.caseCount} · model ${progress.modelIndex} of ${progress.modelCount} (${progress.model}) · ${seconds(progress.elapsedMs)} elapsed${left}\n`
}

function seconds(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)))
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd() + '\n').join('')
}

function matrixText(detail: EvaluationDetail): string {
  const { matrix } = detail
  const cell = (value: (typeof matrix.cases)[number]['cells'][number]): string => (value ? (value.outcome === 'passed' ? 'pass' : value.outcome) : '—')
  const rows = [
    ['case', ...matrix.models.map((model) => model.model)],
    ...matrix.cases.map((row) => [row.name, ...row.cells.map(cell)]),
    ['pass rate', ...matrix.models.map((model) => `${Math.round(model.passRate * 100)}% (${model.passed}/${model.total})`)],
    ...(matrix.categories ?? []).map((row) => [`  ${row.category}`, ...row.models.map((rate) => (rate.total === 0 ? '—' : `${Math.round(rate.passRate * 100)}% (${rate.passed}/${rate.total})`))]),
    ['median time', ...matrix.models.map((model) => (model.medianMs === null ? '—' : seconds(model.medianMs)))],
    ['median tokens', ...matrix.models.map((model) => (model.medianTokens === null ? '—' : String(Math.round(model.medianTokens))))]
  ]
  return `Evaluation ${detail.id} (${detail.status}):\n${table(rows)}`
}

function auditsText(detail: EvaluationDetail): string {
  return detail.runs
    .flatMap((item) => item.cases.filter((result) => result.outcome !== 'passed').map((result) => `${item.model} · ${result.name}: ${result.outcome}${result.message ? ` — ${result.message}` : ''}\n${verdictLine(result)}${auditLine(result)}`))
    .join('')
}

function historyLine(summary: EvaluationSummary): string {
  const models = summary.models.map((model) => `${model.model} ${model.passed}/${model.total}`).join(', ')
  return `${summary.id}  ${summary.startedAt}  ${summary.status}  ${models}\n`
}

function comparisonText(comparison: EvaluationComparison): string {
  const lines = [`Comparing ${comparison.before.id} (${comparison.before.startedAt}) → ${comparison.after.id} (${comparison.after.startedAt})`]
  for (const kind of ['fixed', 'broke'] as const) {
    const changes = comparison.changes.filter((change) => change.change === kind)
    lines.push(`${kind === 'fixed' ? 'Fixed' : 'Broke'} (${changes.length}):`)
    for (const change of changes) lines.push(`  ${change.name} [${change.model}]: ${change.before} → ${change.after}`)
  }
  if (!comparison.promptChanged) lines.push('System prompt: unchanged')
  else {
    lines.push('System prompt diff:')
    comparison.promptDiff.forEach((line, index, all) => {
      const near = all.slice(Math.max(0, index - 2), index + 3).some((other) => other.kind !== 'same')
      if (line.kind !== 'same') lines.push(`${line.kind === 'added' ? '+' : '-'} ${line.text}`)
      else if (near) lines.push(`  ${line.text}`)
    })
  }
  return lines.join('\n') + '\n'
}
