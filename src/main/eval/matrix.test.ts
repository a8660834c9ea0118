import { describe, expect, it } from 'vitest'
import type { EvaluationCaseResult, EvaluationDetail, EvaluationModelRun, EvaluationOutcome } from '../../shared/api'
import { buildMatrix, compareEvaluations, median } from './matrix'

function result(file: string, outcome: EvaluationOutcome, ms: number, tokens: number): EvaluationCaseResult {
  return { file, name: file.replace(/^tests\/|\.yml$/g, ''), outcome, status: outcome === 'passed' ? 'passed' : 'failed', expected: null, actual: null, sql: null, runId: `r-${file}`, ms, tokens, inputTokens: tokens, outputTokens: 0, rounds: 1, firstTokenMs: null, audit: null }
}

function run(model: string, systemPrompt: string, cases: EvaluationCaseResult[]): EvaluationModelRun {
  const passed = cases.filter((item) => item.outcome === 'passed').length
  return { model, endpoint: 'http://x/v1', systemPromptHash: systemPrompt, systemPrompt, passed, failed: cases.length - passed, errored: 0, cases }
}

function detail(id: string, runs: EvaluationModelRun[]): EvaluationDetail {
  return { id, status: 'done', startedAt: 't', endedAt: 't', models: [], runs, matrix: buildMatrix(runs) }
}

describe('evaluation matrix', () => {
  it('gives per model the pass rate, median time and median tokens, and a row per case', () => {
    const matrix = buildMatrix(
      [
        run('half', 'p', [result('tests/a.yml', 'passed', 100, 10), result('tests/b.yml', 'failed: wrong result', 300, 30)]),
        run('all', 'p', [result('tests/a.yml', 'passed', 50, 5), result('tests/b.yml', 'passed', 70, 7)])
      ],
      [{ file: 'tests/a.yml', name: 'a' }, { file: 'tests/b.yml', name: 'b' }, { file: 'tests/c.yml', name: 'c' }]
    )
    expect(matrix.models.map((model) => [model.model, model.passRate, model.medianMs, model.medianTokens])).toEqual([
      ['half', 0.5, 200, 20],
      ['all', 1, 60, 6]
    ])
    expect(matrix.cases.map((row) => [row.name, row.cells.map((cell) => cell?.outcome ?? null)])).toEqual([
      ['a', ['passed', 'passed']],
      ['b', ['failed: wrong result', 'passed']],
      ['c', [null, null]]
    ])
    expect(median([])).toBeNull()
  })

  it('compares two evaluations: fixed and broken cases and the system-prompt diff', () => {
    const before = detail('e1', [run('m', 'Rules:\nbe brief', [result('tests/a.yml', 'failed: wrong result', 1, 1), result('tests/b.yml', 'passed', 1, 1), result('tests/c.yml', 'passed', 1, 1)])])
    const after = detail('e2', [run('m', 'Rules:\nbe brief\nread columns.md first', [result('tests/a.yml', 'passed', 1, 1), result('tests/b.yml', 'failed: no SQL', 1, 1), result('tests/c.yml', 'passed', 1, 1)])])
    const comparison = compareEvaluations(before, after)
    expect(comparison.changes.map((change) => [change.name, change.change])).toEqual([
      ['a', 'fixed'],
      ['b', 'broke'],
      ['c', 'same']
    ])
    expect([comparison.fixed, comparison.broke, comparison.promptChanged]).toEqual([1, 1, true])
    expect(comparison.promptDiff).toEqual([
      { kind: 'same', text: 'Rules:' },
      { kind: 'same', text: 'be brief' },
      { kind: 'added', text: 'read columns.md first' }
    ])
    expect(compareEvaluations(before, before)).toMatchObject({ promptChanged: false, promptDiff: [] })
  })
})

describe('pass rates per category', () => {
  it('groups cases by their category and gives each model its pass rate there, leaving uncategorised cases out', () => {
    const withCategory = (file: string, outcome: EvaluationOutcome, category?: string): EvaluationCaseResult => ({ ...result(file, outcome, 1, 1), ...(category ? { category } : {}) })
    const matrix = buildMatrix(
      [
        run('small', 'p', [withCategory('tests/a.yml', 'passed', 'join'), withCategory('tests/b.yml', 'failed: wrong result', 'join'), withCategory('tests/c.yml', 'passed', 'date'), withCategory('tests/d.yml', 'passed')]),
        run('large', 'p', [withCategory('tests/a.yml', 'passed', 'join'), withCategory('tests/b.yml', 'passed', 'join')])
      ],
      [{ file: 'tests/a.yml', name: 'a', category: 'join' }, { file: 'tests/b.yml', name: 'b', category: 'join' }, { file: 'tests/c.yml', name: 'c', category: 'date' }, { file: 'tests/d.yml', name: 'd' }]
    )
    expect(matrix.categories).toEqual([
      { category: 'join', models: [{ passed: 1, total: 2, passRate: 0.5 }, { passed: 2, total: 2, passRate: 1 }] },
      { category: 'date', models: [{ passed: 1, total: 1, passRate: 1 }, { passed: 0, total: 0, passRate: 0 }] }
    ])
    expect(matrix.cases.map((row) => row.category)).toEqual(['join', 'join', 'date', null])
  })
})
