import { diffLines } from '../../shared/line-diff'
import type { EvaluationComparison, EvaluationDetail, EvaluationMatrix, EvaluationModelRun, EvaluationSummary } from '../../shared/api'

// The cases × models view of an evaluation and the comparison of two: pure functions of stored runs.

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** `caseOrder`: the project's cases (file, name, category) so cases not run yet still get a row. */
export function buildMatrix(runs: readonly EvaluationModelRun[], caseOrder: readonly { file: string; name: string; category?: string }[] = []): EvaluationMatrix {
  const rows = new Map<string, string>()
  const categories = new Map<string, string>()
  for (const item of caseOrder) {
    rows.set(item.file, item.name)
    if (item.category) categories.set(item.file, item.category)
  }
  for (const run of runs) {
    for (const result of run.cases) {
      if (!rows.has(result.file)) rows.set(result.file, result.name)
      // The project's file says what a case's category is now; a stored result says what it was.
      if (result.category && !categories.has(result.file)) categories.set(result.file, result.category)
    }
  }
  return {
    models: runs.map((run) => {
      const total = run.cases.length
      return {
        model: run.model,
        endpoint: run.endpoint,
        passed: run.passed,
        total,
        passRate: total === 0 ? 0 : run.passed / total,
        medianMs: median(run.cases.filter((item) => item.runId !== null).map((item) => item.ms)),
        medianTokens: median(run.cases.filter((item) => item.runId !== null).map((item) => item.tokens))
      }
    }),
    cases: [...rows].map(([file, name]) => ({
      file,
      name: runs.flatMap((run) => run.cases).find((item) => item.file === file)?.name ?? name,
      category: categories.get(file) ?? null,
      cells: runs.map((run) => {
        const result = run.cases.find((item) => item.file === file)
        return result ? { outcome: result.outcome, runId: result.runId, ms: result.ms, tokens: result.tokens, ...(result.verdict ? { verdict: result.verdict } : {}) } : null
      })
    })),
    categories: categoryRates(runs, categories)
  }
}

/** Per category (in first-seen order), each model's passed cases of those it ran. */
function categoryRates(runs: readonly EvaluationModelRun[], categories: ReadonlyMap<string, string>): NonNullable<EvaluationMatrix['categories']> {
  const names = [...new Set(categories.values())]
  return names.map((category) => ({
    category,
    models: runs.map((run) => {
      const cases = run.cases.filter((item) => categories.get(item.file) === category)
      const passed = cases.filter((item) => item.outcome === 'passed').length
      return { passed, total: cases.length, passRate: cases.length === 0 ? 0 : passed / cases.length }
    })
  }))
}

/**
 * Per case and model present in both: fixed (failed before, passes now) or broke. Models are matched by
 * name and server; when each evaluation has exactly one model and they differ, those two are compared.
 */
export function compareEvaluations(before: EvaluationDetail, after: EvaluationDetail): EvaluationComparison {
  const pairs: [EvaluationModelRun, EvaluationModelRun][] = []
  for (const run of after.runs) {
    const earlier = before.runs.find((candidate) => candidate.model === run.model && candidate.endpoint === run.endpoint)
    if (earlier) pairs.push([earlier, run])
  }
  if (pairs.length === 0 && before.runs.length === 1 && after.runs.length === 1) pairs.push([before.runs[0], after.runs[0]])
  const changes: EvaluationComparison['changes'] = []
  for (const [earlier, later] of pairs) {
    for (const result of later.cases) {
      const previous = earlier.cases.find((item) => item.file === result.file)
      if (!previous) continue
      const wasPassing = previous.outcome === 'passed'
      const passes = result.outcome === 'passed'
      changes.push({
        file: result.file,
        name: result.name,
        model: later.model,
        before: previous.outcome,
        after: result.outcome,
        change: wasPassing === passes ? 'same' : passes ? 'fixed' : 'broke'
      })
    }
  }
  const [firstBefore, firstAfter] = pairs[0] ?? [before.runs[0], after.runs[0]]
  const promptBefore = firstBefore?.systemPrompt ?? ''
  const promptAfter = firstAfter?.systemPrompt ?? ''
  const promptChanged = promptBefore !== promptAfter
  return {
    before: summaryOf(before),
    after: summaryOf(after),
    changes,
    fixed: changes.filter((item) => item.change === 'fixed').length,
    broke: changes.filter((item) => item.change === 'broke').length,
    promptDiff: promptChanged ? diffLines(promptBefore, promptAfter) : [],
    promptChanged
  }
}

function summaryOf(detail: EvaluationDetail): EvaluationSummary {
  return { id: detail.id, status: detail.status, startedAt: detail.startedAt, endedAt: detail.endedAt, models: detail.models }
}
