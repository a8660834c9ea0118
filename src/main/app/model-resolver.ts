import type { ModelEndpoint } from '../agent/chat-model'
import { describeServedModel, detectServers, listModels, type ModelInfo } from '../agent/discovery'
import { apiKeyFor, normalizeBaseUrl, SERVER_PRESETS, serversToProbe, START_SERVER_GUIDANCE, type ServerPreset } from '../agent/endpoints'
import type { Settings } from '../../shared/api'
import type { PromptModelInfo } from './prompt-assembly'
import { TokenCalibration } from './token-calibration'
import { errorMessage } from '../../shared/error-message'

// Which model a run talks to and what it can take: the endpoint and model from the settings, else the first server detected on loopback; its context window from the server itself,
// else the configured one, else a conservative default. Discovery is cached so previews stay instant.

/** Used when neither the server nor the settings say: small enough that a request never overflows silently. */
export const DEFAULT_CONTEXT_WINDOW = 8192
/**
 * The inspector's words for where the window came from when nobody said. ASCII, as the prompt's own text often is:
 * one character beyond it makes V8 hold the whole JSON of a preview in two bytes a character, slower to write.
 */
export const DEFAULT_CONTEXT_SOURCE = 'default, as the server did not say'
export const SETTINGS_CONTEXT_SOURCE = 'settings'
/** A server that did not report its window is asked again after this long (it may load a model meanwhile). */
const UNKNOWN_WINDOW_RETRY_MS = 5_000
/** A window known for this long is read again in the background when a preview uses it (a server may restart). */
const KNOWN_WINDOW_RECHECK_MS = 10_000
/**
 * How long after finding no server a preview looks again. Without it every preview, and each of a preview's
 * passes, probed the usual ports once more: three look-ups per `glassbox prompt`, the last keeping the
 * process alive after its output.
 */
const NO_SERVER_RETRY_MS = 1_000
/** How long a preview waits for a look-up in flight before it uses what is known. */
const PREVIEW_WAIT_MS = 600
const MAX_RESERVED_OUTPUT = 2048
const DISCOVERY_TIMEOUT_MS = 1500

export interface ResolvedModel {
  endpoint: ModelEndpoint | null
  info: PromptModelInfo
  /** Where the context window came from, in words (for the inspector). */
  contextSource: string
  /** What the server says about tool calling; null when it does not say. */
  tools: boolean | null
  /** Why there is no endpoint, and how to get one (set when endpoint is null). */
  unavailable?: string
}

interface EndpointChoice {
  endpoint: ModelEndpoint | null
  unavailable?: string
}

export function reservedOutputFor(contextWindow: number): number {
  return Math.min(MAX_RESERVED_OUTPUT, Math.floor(contextWindow / 4))
}

export class ModelResolver {
  private readonly described = new Map<string, Promise<ModelInfo | null>>()
  private readonly settled = new Map<string, ModelInfo | null>()
  /** Models whose newest look-up has not come back yet (a first one, or a re-read). */
  private readonly looking = new Set<string>()
  /** When each model's description last came back from its server. */
  private readonly settledAt = new Map<string, number>()
  /** The model a run without a named model would use, per configured endpoint (see automaticEndpoint). */
  private readonly automatic = new Map<string, ModelEndpoint | null>()
  private readonly automaticPending = new Map<string, Promise<unknown>>()
  /** When each automatic look-up last found no server. */
  private readonly noServerAt = new Map<string, number>()

  constructor(
    private readonly presets: readonly ServerPreset[] = SERVER_PRESETS,
    /** What each model's server taught us about our token estimates (kept in the store by the app). */
    readonly calibration: TokenCalibration = new TokenCalibration(),
    /** How soon a server that did not say its window is asked again. */
    private readonly unknownWindowRetryMs = UNKNOWN_WINDOW_RETRY_MS,
    /** How old a known window may be before a preview has it read again. */
    private readonly knownWindowRecheckMs = KNOWN_WINDOW_RECHECK_MS,
    /** Told when a look-up finds a model's window changed since the last one (the model list is then stale). */
    private readonly onWindowChange: () => void = () => undefined,
    /** How soon an automatic look-up that found no server is made again. */
    private readonly noServerRetryMs = NO_SERVER_RETRY_MS
  ) {}

  /** The endpoint a run would use, asking the servers when nothing is configured. */
  private async endpointFor(settings: Settings): Promise<EndpointChoice> {
    const configured = settings.endpoint
    const model = settings.model
    if (configured) {
      const baseUrl = normalizeBaseUrl(configured)
      const key = keyFor(baseUrl, settings)
      // A named model needs no look-up: the request goes out at once.
      if (model) return { endpoint: { baseUrl, model, ...key } }
      let models
      try {
        models = await listModels(baseUrl, { timeoutMs: DISCOVERY_TIMEOUT_MS, ...key })
      } catch (error) {
        const reason = errorMessage(error)
        return { endpoint: null, unavailable: `Could not list the models of ${baseUrl} (${reason}).\n${START_SERVER_GUIDANCE}` }
      }
      if (!models[0]) return { endpoint: null, unavailable: `${baseUrl} serves no model. Load or pull one (e.g. \`ollama pull qwen3:8b\`), or choose a model.` }
      return { endpoint: { baseUrl, model: models[0].id, ...key } }
    }
    // The servers the user added are probed too, first.
    const servers = await detectServers({ timeoutMs: DISCOVERY_TIMEOUT_MS, presets: serversToProbe(settings.endpoints ?? [], this.presets) })
    const server = servers.find((candidate) => candidate.models.length > 0)
    if (!server) return { endpoint: null, unavailable: START_SERVER_GUIDANCE }
    const chosen = (model && server.models.find((candidate) => candidate.id === model)) || server.models[0]
    return { endpoint: { baseUrl: server.baseUrl, model: chosen.id, ...keyFor(server.baseUrl, settings) } }
  }

  /**
   * Full resolution for a run: waits for discovery (bounded). The window is read from the server again (one
   * small request), since it may have been restarted with another one since the last look.
   */
  async resolve(settings: Settings): Promise<ResolvedModel> {
    const choice = await this.endpointFor(settings)
    const described = choice.endpoint ? await this.describe(choice.endpoint, true) : null
    return { ...this.toResolved(choice.endpoint, described, settings), ...(choice.unavailable ? { unavailable: choice.unavailable } : {}) }
  }

  /** Instant resolution for previews: uses what discovery already knows and starts it for next time. */
  peek(settings: Settings): ResolvedModel {
    const { endpoint: baseUrl, model } = settings
    const endpoint = baseUrl && model ? { baseUrl: normalizeBaseUrl(baseUrl), model, ...keyFor(normalizeBaseUrl(baseUrl), settings) } : this.automaticEndpoint(settings)
    if (!endpoint) return this.toResolved(null, null, settings)
    const key = keyOf(endpoint)
    if (!this.described.has(key)) void this.describe(endpoint)
    else if (this.settled.has(key) && Date.now() - (this.settledAt.get(key) ?? 0) > this.knownWindowRecheckMs) {
      // Stale while revalidating: this preview uses what is known, the next one what the server says now.
      this.settledAt.set(key, Date.now())
      void this.describe(endpoint, true)
    }
    return this.toResolved(endpoint, this.settled.get(key) ?? null, settings)
  }

  /**
   * For previews: what discovery knows, after waiting briefly for a look-up in flight, so the first preview
   * already uses the window the run will (a loopback server answers in milliseconds).
   */
  async peekSoon(settings: Settings, waitMs = PREVIEW_WAIT_MS): Promise<ResolvedModel> {
    const deadline = Date.now() + waitMs
    // Twice at most: the automatic model is found first, then described.
    for (let pass = 0; pass < 2; pass++) {
      this.peek(settings)
      const waiting = this.inFlight(settings)
      const left = deadline - Date.now()
      if (!waiting || left <= 0) break
      let timer: NodeJS.Timeout | undefined
      await Promise.race([waiting, new Promise((resolve) => (timer = setTimeout(resolve, left)))])
      clearTimeout(timer)
    }
    return this.peek(settings)
  }

  /** The look-up a preview for these settings would wait for, if one has not settled yet. */
  private inFlight(settings: Settings): Promise<unknown> | null {
    if (!settings.endpoint || !settings.model) {
      const key = automaticKey(settings)
      const choice = this.automatic.get(key)
      if (choice === null) return this.automaticPending.get(key) ?? null
      if (!choice) return null
      return this.looking.has(keyOf(choice)) ? (this.described.get(keyOf(choice)) ?? null) : null
    }
    const key = keyOf({ baseUrl: normalizeBaseUrl(settings.endpoint), model: settings.model })
    return this.looking.has(key) ? (this.described.get(key) ?? null) : null
  }

  /**
   * With no model named, a run takes the first one found; previews use the same one once it is known (and
   * start looking for it), so the budget is checked against the window the run will have.
   */
  private automaticEndpoint(settings: Settings): ModelEndpoint | null {
    const key = automaticKey(settings)
    const known = this.automatic.get(key)
    if (known === undefined && Date.now() - (this.noServerAt.get(key) ?? -Infinity) >= this.noServerRetryMs) {
      this.automatic.set(key, null)
      const foundNone = () => {
        this.automatic.delete(key)
        this.noServerAt.set(key, Date.now())
      }
      const pending = this.endpointFor(settings)
        .then((choice) => {
          if (choice.endpoint) this.automatic.set(key, choice.endpoint)
          else foundNone()
        })
        .catch(foundNone)
        .finally(() => this.automaticPending.delete(key))
      this.automaticPending.set(key, pending)
    }
    return known ?? null
  }

  /**
   * What a fresh model list says (the picker's ↻): previews and runs then budget against the same window as
   * the picker shows.
   */
  learn(baseUrl: string, models: readonly ModelInfo[]): void {
    // A server answered: the next preview looks for the automatic model again at once.
    this.noServerAt.clear()
    for (const model of models) {
      const key = keyOf({ baseUrl: normalizeBaseUrl(baseUrl), model: model.id })
      this.settled.set(key, model)
      this.settledAt.set(key, Date.now())
      this.described.set(key, Promise.resolve(model))
      this.looking.delete(key)
    }
  }

  /** The model's window as the server reports it now (after a refusal for length), null when it does not say. */
  async reread(endpoint: ModelEndpoint): Promise<{ contextWindow: number; contextSource: string } | null> {
    const info = await this.describe(endpoint, true)
    return info?.contextWindow ? { contextWindow: info.contextWindow, contextSource: info.contextSource } : null
  }

  private describe(endpoint: ModelEndpoint, fresh = false): Promise<ModelInfo | null> {
    const key = keyOf(endpoint)
    let pending = fresh ? undefined : this.described.get(key)
    if (!pending) {
      // The model's /v1/models entry is read too, so picker, previews and runs agree on one window.
      pending = describeServedModel(endpoint.baseUrl, endpoint.model, { timeoutMs: DISCOVERY_TIMEOUT_MS, ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}) })
        .catch(() => null)
        .then((info) => {
          // A newer look-up started meanwhile has the last word.
          if (this.described.get(key) !== pending) return info ?? this.settled.get(key) ?? null
          this.looking.delete(key)
          // A server that does not answer now (busy, restarting) keeps what it said last.
          const before = this.settled.get(key)?.contextWindow
          if (info?.contextWindow && before && info.contextWindow !== before) this.onWindowChange()
          const known = info ?? this.settled.get(key) ?? null
          this.settled.set(key, known)
          this.settledAt.set(key, Date.now())
          // A failed look-up, or a server that did not say its window, is asked again later: the server may
          // not have been started yet, or may report the window once the model is loaded.
          if (info === null) this.described.delete(key)
          else if (info.contextWindow === null) setTimeout(() => this.described.get(key) === pending && this.described.delete(key), this.unknownWindowRetryMs).unref()
          return known
        })
      this.described.set(key, pending)
      this.looking.add(key)
    }
    return pending
  }

  private toResolved(endpoint: ModelEndpoint | null, described: ModelInfo | null, settings: Settings): ResolvedModel {
    // A window the user configured wins: they may know the server runs with a smaller one than it reports.
    const contextWindow = settings.contextWindow ?? described?.contextWindow ?? DEFAULT_CONTEXT_WINDOW
    const contextSource = settings.contextWindow
      ? SETTINGS_CONTEXT_SOURCE
      : described?.contextWindow
        ? described.contextSource
        : DEFAULT_CONTEXT_SOURCE
    return {
      endpoint,
      info: {
        contextWindow,
        reservedOutput: reservedOutputFor(contextWindow),
        hasVision: described?.vision ?? false,
        supportsPromptCache: false,
        contextSource,
        tokenScale: endpoint ? this.calibration.scale(endpoint) : 1
      },
      contextSource,
      tools: described?.tools ?? null
    }
  }
}

function automaticKey(settings: Settings): string {
  return `${settings.endpoint ?? ''}\n${settings.model ?? ''}\n${JSON.stringify(settings.endpoints ?? [])}`
}

/** The API key the user gave for this server, as endpoint fields (none: nothing to add). */
function keyFor(baseUrl: string, settings: Settings): { apiKey?: string } {
  const apiKey = apiKeyFor(baseUrl, settings.endpoints ?? [])
  return apiKey ? { apiKey } : {}
}

function keyOf(endpoint: ModelEndpoint): string {
  return `${endpoint.baseUrl}\n${endpoint.model}`
}
