// Our token counts are a BPE estimate; a local model's own tokenizer may need more tokens for the same text.
// The server reports how many the first round of a run really took, so each model's estimate is scaled up
// by what it reported. Only up: an estimate that runs high merely leaves some room unused, one that runs
// low is what makes a server cut a prompt. (Servers with prompt caching may also report fewer tokens.)

const MAX_SCALE = 3
/** Weight of the newest observation: adapts within a few runs, shrugs off one odd report. */
const WEIGHT = 0.5

export class TokenCalibration {
  private readonly scales = new Map<string, number>()

  /** The factor to multiply estimates by for this model (1 until a run says otherwise). */
  scale(key: string): number {
    return this.scales.get(key) ?? 1
  }

  record(key: string, estimated: number, reported: number): void {
    if (estimated <= 0 || reported <= 0) return
    const observed = Math.min(MAX_SCALE, Math.max(1, reported / estimated))
    const previous = this.scales.get(key)
    this.scales.set(key, previous === undefined ? observed : previous * (1 - WEIGHT) + observed * WEIGHT)
  }
}

export function calibrationKey(endpoint: { baseUrl: string; model: string }): string {
  return `${endpoint.baseUrl}\n${endpoint.model}`
}
