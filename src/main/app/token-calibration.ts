// Our token counts are a BPE estimate; a local model's own tokenizer may need more tokens for the same text.
// Two kinds of observation correct it, per server and model: an exact count of a whole request from the
// server (llama.cpp /apply-template + /tokenize, see ServerTokenCounter) and the prompt tokens a server
// reports after a run. Only up: an estimate that runs high merely leaves some room unused, one that runs
// low is what makes a server cut a prompt (and servers with prompt caching may report fewer tokens).
// What is learned is kept in the store, so the next process (a CLI command, the app after a restart)
// starts from it.

const MAX_SCALE = 3
/** Weight of a reported-usage observation: adapts within a few runs, shrugs off one odd report. */
const USAGE_WEIGHT = 0.5

export interface CalibratedModel {
  baseUrl: string
  model: string
}

export interface StoredScale {
  scale: number
  observations: number
}

/** Where learned scales persist (the store's token_scales table); absent in unit tests. */
export interface ScaleStore {
  get(baseUrl: string, model: string): StoredScale | null
  set(baseUrl: string, model: string, entry: StoredScale): void
}

export class TokenCalibration {
  private readonly scales = new Map<string, StoredScale | null>()

  constructor(private readonly persisted?: ScaleStore) {}

  /** The factor to multiply estimates by for this model (1 until something says otherwise). */
  scale(endpoint: CalibratedModel): number {
    return this.entry(endpoint)?.scale ?? 1
  }

  /** The server reported how many prompt tokens a request we estimated took. */
  record(endpoint: CalibratedModel, estimated: number, reported: number): void {
    this.observe(endpoint, estimated, reported, USAGE_WEIGHT)
  }

  /** The server counted a request exactly: the scale becomes what this count shows (never below 1). */
  recordExact(endpoint: CalibratedModel, estimated: number, exact: number): void {
    this.observe(endpoint, estimated, exact, 1)
  }

  private observe(endpoint: CalibratedModel, estimated: number, counted: number, weight: number): void {
    if (estimated <= 0 || counted <= 0) return
    const observed = Math.min(MAX_SCALE, Math.max(1, counted / estimated))
    const previous = this.entry(endpoint)
    const next: StoredScale = previous
      ? { scale: previous.scale * (1 - weight) + observed * weight, observations: previous.observations + 1 }
      : { scale: observed, observations: 1 }
    this.scales.set(keyOf(endpoint), next)
    try {
      this.persisted?.set(endpoint.baseUrl, endpoint.model, next)
    } catch {
      // A store that cannot be written (read-only, locked) costs only the learning, never the run.
    }
  }

  private entry(endpoint: CalibratedModel): StoredScale | null {
    const key = keyOf(endpoint)
    if (this.scales.has(key)) return this.scales.get(key) ?? null
    let stored: StoredScale | null = null
    try {
      stored = this.persisted?.get(endpoint.baseUrl, endpoint.model) ?? null
    } catch {
      stored = null
    }
    this.scales.set(key, stored)
    return stored
  }
}

function keyOf(endpoint: CalibratedModel): string {
  return `${endpoint.baseUrl}\n${endpoint.model}`
}
