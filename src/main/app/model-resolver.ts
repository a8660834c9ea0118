import type { ModelEndpoint } from '../agent/chat-model'
import { detectServers, describeModel, listModels, type ModelInfo } from '../agent/discovery'
import { normalizeBaseUrl, SERVER_PRESETS, START_SERVER_GUIDANCE, type ServerPreset } from '../agent/endpoints'
import type { Settings } from '../../shared/api'
import type { PromptModelInfo } from './prompt-assembly'
import { TokenCalibration } from './token-calibration'
import { errorMessage } from '../../shared/error-message'

// Which model a run talks to and what it can take: the endpoint and model from the settings, else the first server detected on loopback; its context window from the server itself,
// else the configured one, else a conservative default. Discovery is cached so previews stay instant.

/** Used when neither the server nor the settings say: small enough that a request never overflows silently. */
export const DEFAULT_CONTEXT_WINDOW = 8192
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
  constructor(
    private readonly presets: readonly ServerPreset[] = SERVER_PRESETS,
    /** What each model's server taught us about our token estimates (kept in the store by the app). */
    readonly calibration: TokenCalibration = new TokenCalibration()
  ) {}

  /** The endpoint a run would use, asking the servers when nothing is configured. */
  private async endpointFor(settings: Settings): Promise<EndpointChoice> {
    const configured = settings.endpoint
    const model = settings.model
    if (configured) {
      const baseUrl = normalizeBaseUrl(configured)
      // A named model needs no look-up: the request goes out at once.
      if (model) return { endpoint: { baseUrl, model } }
      let models
      try {
        models = await listModels(baseUrl, { timeoutMs: DISCOVERY_TIMEOUT_MS })
      } catch (error) {
        const reason = errorMessage(error)
        return { endpoint: null, unavailable: `Could not list the models of ${baseUrl} (${reason}).\n${START_SERVER_GUIDANCE}` }
      }
      if (!models[0]) return { endpoint: null, unavailable: `${baseUrl} serves no model. Load or pull one (e.g. \`ollama pull qwen3:8b\`), or choose a model.` }
      return { endpoint: { baseUrl, model: models[0].id } }
    }
    const servers = await detectServers({ timeoutMs: DISCOVERY_TIMEOUT_MS, presets: this.presets })
    const server = servers.find((candidate) => candidate.models.length > 0)
    if (!server) return { endpoint: null, unavailable: START_SERVER_GUIDANCE }
    const chosen = (model && server.models.find((candidate) => candidate.id === model)) || server.models[0]
    return { endpoint: { baseUrl: server.baseUrl, model: chosen.id } }
  }

  /** Full resolution for a run: waits for discovery (bounded). */
  async resolve(settings: Settings): Promise<ResolvedModel> {
    const choice = await this.endpointFor(settings)
    const described = choice.endpoint ? await this.describe(choice.endpoint, settings) : null
    return { ...this.toResolved(choice.endpoint, described, settings), ...(choice.unavailable ? { unavailable: choice.unavailable } : {}) }
  }

  /** Instant resolution for previews: uses what discovery already knows and starts it for next time. */
  peek(settings: Settings): ResolvedModel {
    const { endpoint: baseUrl, model } = settings
    if (!baseUrl || !model) return this.toResolved(null, null, settings)
    const endpoint = { baseUrl: normalizeBaseUrl(baseUrl), model }
    const key = keyOf(endpoint)
    if (!this.described.has(key)) void this.describe(endpoint, settings)
    return this.toResolved(endpoint, this.settled.get(key) ?? null, settings)
  }

  private describe(endpoint: ModelEndpoint, settings: Settings): Promise<ModelInfo | null> {
    const key = keyOf(endpoint)
    let pending = this.described.get(key)
    if (!pending) {
      pending = describeModel(endpoint.baseUrl, endpoint.model, {
        timeoutMs: DISCOVERY_TIMEOUT_MS,
        configuredContextWindow: settings.contextWindow ?? undefined
      })
        .catch(() => null)
        .then((info) => {
          this.settled.set(key, info)
          // A failed look-up is retried next time: the server may simply not have been started yet.
          if (info === null) this.described.delete(key)
          return info
        })
      this.described.set(key, pending)
    }
    return pending
  }

  private toResolved(endpoint: ModelEndpoint | null, described: ModelInfo | null, settings: Settings): ResolvedModel {
    // A window the user configured wins: they may know the server runs with a smaller one than it reports.
    const contextWindow = settings.contextWindow ?? described?.contextWindow ?? DEFAULT_CONTEXT_WINDOW
    const contextSource = settings.contextWindow
      ? 'configured in settings'
      : described?.contextWindow
        ? described.contextSource
        : `default (${DEFAULT_CONTEXT_WINDOW}); the server did not say`
    return {
      endpoint,
      info: {
        contextWindow,
        reservedOutput: reservedOutputFor(contextWindow),
        hasVision: described?.vision ?? false,
        supportsPromptCache: false,
        tokenScale: endpoint ? this.calibration.scale(endpoint) : 1
      },
      contextSource,
      tools: described?.tools ?? null
    }
  }
}

function keyOf(endpoint: ModelEndpoint): string {
  return `${endpoint.baseUrl}\n${endpoint.model}`
}
