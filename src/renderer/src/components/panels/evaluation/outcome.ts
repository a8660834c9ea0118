import type { EvaluationOutcome } from '../../../../../shared/api'

// How an outcome class looks in the matrix: a short label and the badge colour.

const LABELS: Record<EvaluationOutcome, string> = {
  passed: 'pass',
  'failed: wrong result': 'wrong',
  'failed: no SQL': 'no SQL',
  'error: tool': 'tool error',
  'error: loop guard': 'loop',
  'error: round limit': 'rounds',
  timeout: 'timeout',
  'error: run': 'error'
}

export function outcomeLabel(outcome: EvaluationOutcome): string {
  return LABELS[outcome]
}

export function outcomeBadge(outcome: EvaluationOutcome): string {
  if (outcome === 'passed') return 'badge ok'
  return outcome.startsWith('failed') ? 'badge failed' : 'badge warn'
}

export function seconds(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`
}

export function modelKey(model: { endpoint: string; model: string }): string {
  return `${model.endpoint}#${model.model}`
}

/** `127.0.0.1:11434` for a server URL; the text itself when it is not one (evaluations carried over from before). */
export function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host
  } catch {
    return endpoint
  }
}
