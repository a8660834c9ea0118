import * as z from '../../shared/zod-mini'
import { once } from '../../shared/once'
import { isLoopbackUrl, kindOf, SERVER_PRESETS, serverOrigin, type ServerKind, type ServerPreset } from './endpoints'
import { modelFetch } from './model-fetch'
import { net } from '../lazy-builtin'

// Which local servers are running, what models they serve, and each model's context window and
// capabilities, read from the server's own endpoints. Every response is validated; anything odd means
// "unknown", never a crash. Requests go only to the given base URL's host.

export interface ModelInfo {
  id: string
  /** The window to budget against: what the server will actually use, or the configured fallback. */
  contextWindow: number | null
  /** Where contextWindow came from, in words. */
  contextSource: string
  /** The model's trained maximum when the server reports it separately (Ollama, LM Studio). */
  maxContextLength: number | null
  vision: boolean | null
  tools: boolean | null
}

export interface DetectedServer {
  kind: ServerKind
  label: string
  baseUrl: string
  models: ModelInfo[]
}

export interface DiscoveryOptions {
  /** Per request; servers on loopback answer in milliseconds. */
  timeoutMs?: number
  signal?: AbortSignal
  /** Used when the server does not say (SPEC §3.5: never guess larger than configured). */
  configuredContextWindow?: number
  /** Sent as a bearer token to a server that wants one. */
  apiKey?: string
}

/** Per request, when the caller does not say. */
const DEFAULT_TIMEOUT_MS = 1_500

/** Ollama's num_ctx when a model sets none (recent Ollama versions; older ones used 2048). */
export const OLLAMA_DEFAULT_NUM_CTX = 4096

function responseSchemas() {
  const positiveInteger = z.number().check(z.int(), z.positive())
  return {
    openAiModels: z.object({
      data: z.array(
        z.looseObject({
          id: z.string(),
          max_model_len: z.optional(positiveInteger),
          // llama.cpp: the model's trained context length.
          meta: z.catch(z.nullish(z.looseObject({ n_ctx_train: z.optional(positiveInteger) })), undefined)
        })
      )
    }),
    ollamaShow: z.looseObject({
      model_info: z.optional(z.record(z.string(), z.unknown())),
      parameters: z.optional(z.string()),
      capabilities: z.optional(z.array(z.string()))
    }),
    llamaProps: z.looseObject({
      n_ctx: z.optional(positiveInteger),
      default_generation_settings: z.optional(z.looseObject({ n_ctx: z.optional(positiveInteger) })),
      modalities: z.optional(z.looseObject({ vision: z.optional(z.boolean()) })),
      // What the loaded chat template can render. supports_tools false: tool definitions would be dropped.
      chat_template_caps: z.catch(z.optional(z.looseObject({ supports_tools: z.optional(z.boolean()) })), undefined)
    }),
    lmStudioModels: z.object({
      data: z.array(
        z.looseObject({
          id: z.string(),
          type: z.optional(z.string()),
          max_context_length: z.optional(positiveInteger),
          loaded_context_length: z.optional(positiveInteger),
          capabilities: z.optional(z.array(z.string()))
        })
      )
    })
  }
}

// Made on the first answer to check: most starts (a prompt with no server running) never get one, and
// building them is a millisecond of a cold start.
const schemasOf = once(responseSchemas)

/** Probes the preset addresses in parallel and returns the servers that answered GET /v1/models. */
export async function detectServers(options: DiscoveryOptions & { presets?: readonly ServerPreset[] } = {}): Promise<DetectedServer[]> {
  // Detection probes this machine only; a server elsewhere is reached only when the user names it.
  const presets = (options.presets ?? SERVER_PRESETS).filter((preset) => isLoopbackUrl(preset.baseUrl))
  const found = await Promise.all(
    presets.map(async (preset) => {
      try {
        if (!(await somethingListens(preset.baseUrl, options.timeoutMs ?? DEFAULT_TIMEOUT_MS))) return null
        const models = await listModels(preset.baseUrl, { ...options, kind: preset.kind, ...(preset.apiKey ? { apiKey: preset.apiKey } : {}) })
        return { kind: preset.kind, label: preset.label, baseUrl: preset.baseUrl, models }
      } catch {
        return null
      }
    })
  )
  return found.filter((server): server is DetectedServer => server !== null)
}

/**
 * Whether a TCP connection to the URL's port is accepted. Most presets have no server behind them: a refused
 * connection says so without loading the HTTP client (fetch costs ~20 ms to load in a one-shot command).
 */
function somethingListens(baseUrl: string, timeoutMs: number): Promise<boolean> {
  const url = new URL(baseUrl)
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  return new Promise((resolve) => {
    const socket = net().connect({ host, port, timeout: timeoutMs })
    const done = (listening: boolean) => {
      socket.destroy()
      resolve(listening)
    }
    socket.once('connect', () => done(true))
    socket.once('timeout', () => done(false))
    socket.once('error', () => done(false))
  })
}

/** GET /v1/models, then each model's context window and capabilities from the server's own endpoint. */
export async function listModels(baseUrl: string, options: DiscoveryOptions & { kind?: ServerKind } = {}): Promise<ModelInfo[]> {
  const listed = schemasOf().openAiModels.safeParse(await getJson(`${baseUrl}/models`, options))
  if (!listed.success) throw new Error(`${baseUrl}/models did not return an OpenAI-style model list`)
  const kind = options.kind ?? kindOf(baseUrl)
  return Promise.all(
    listed.data.data.map((model) =>
      describeModel(baseUrl, model.id, { ...options, kind, maxModelLen: model.max_model_len, trainedContextLength: model.meta?.n_ctx_train })
    )
  )
}

/**
 * One model as its server describes it, for a run or a preview: its `/v1/models` entry first (vLLM reports
 * `max_model_len` only there), then the server's own endpoints — the same answer the model list gives.
 */
export async function describeServedModel(baseUrl: string, modelId: string, options: DiscoveryOptions & { kind?: ServerKind } = {}): Promise<ModelInfo> {
  let entry: { max_model_len?: number; meta?: { n_ctx_train?: number } | null } | undefined
  try {
    const listed = schemasOf().openAiModels.safeParse(await getJson(`${baseUrl}/models`, options))
    if (listed.success) entry = listed.data.data.find((model) => model.id === modelId)
  } catch {
    // The server's own endpoints may still say.
  }
  return describeModel(baseUrl, modelId, { ...options, maxModelLen: entry?.max_model_len, trainedContextLength: entry?.meta?.n_ctx_train ?? undefined })
}

/** Context window and capabilities of one model; falls back to the configured window. */
export async function describeModel(
  baseUrl: string,
  modelId: string,
  options: DiscoveryOptions & { kind?: ServerKind; maxModelLen?: number; trainedContextLength?: number } = {}
): Promise<ModelInfo> {
  const unknown: ModelInfo = {
    id: modelId,
    contextWindow: options.configuredContextWindow ?? null,
    contextSource: options.configuredContextWindow ? 'configured' : 'unknown',
    maxContextLength: options.trainedContextLength ?? null,
    vision: null,
    tools: null
  }
  if (options.maxModelLen) return { ...unknown, contextWindow: options.maxModelLen, contextSource: 'vLLM /v1/models max_model_len' }
  const kind = options.kind ?? kindOf(baseUrl)
  const probes: Record<ServerKind, Array<() => Promise<ModelInfo | null>>> = {
    ollama: [() => fromOllama(baseUrl, modelId, unknown, options)],
    'llama.cpp': [() => fromLlamaCpp(baseUrl, unknown, options)],
    lmstudio: [() => fromLmStudio(baseUrl, modelId, unknown, options)],
    vllm: [],
    jan: [],
    custom: [
      () => fromOllama(baseUrl, modelId, unknown, options),
      () => fromLlamaCpp(baseUrl, unknown, options),
      () => fromLmStudio(baseUrl, modelId, unknown, options)
    ]
  }
  // All at once, first useful answer wins (one server is only one kind): on an unknown port a llama.cpp
  // server's /props must not wait for the Ollama probe to fail or time out.
  return (await firstAnswer(probes[kind].map((probe) => probe().catch(() => null)))) ?? unknown
}

function firstAnswer<T>(pending: Array<Promise<T | null>>): Promise<T | null> {
  if (pending.length === 0) return Promise.resolve(null)
  return new Promise((resolve) => {
    let left = pending.length
    for (const promise of pending) {
      void promise.then((value) => {
        left--
        if (value !== null) resolve(value)
        else if (left === 0) resolve(null)
      })
    }
  })
}

async function fromOllama(baseUrl: string, modelId: string, base: ModelInfo, options: DiscoveryOptions): Promise<ModelInfo | null> {
  const parsed = schemasOf().ollamaShow.safeParse(await getJson(`${serverOrigin(baseUrl)}/api/show`, options, { model: modelId }))
  if (!parsed.success || !parsed.data.model_info) return null
  const trained = Object.entries(parsed.data.model_info).find(([key, value]) => key.endsWith('.context_length') && typeof value === 'number')?.[1]
  const maxContextLength = typeof trained === 'number' ? trained : null
  const numCtx = /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(parsed.data.parameters ?? '')
  const capabilities = parsed.data.capabilities
  const capability = (name: string): boolean | null => (capabilities ? capabilities.includes(name) : null)
  const inUse = numCtx
    ? { contextWindow: Number(numCtx[1]), contextSource: 'Ollama /api/show num_ctx' }
    : {
        contextWindow: Math.min(maxContextLength ?? OLLAMA_DEFAULT_NUM_CTX, base.contextWindow ?? OLLAMA_DEFAULT_NUM_CTX),
        contextSource: `Ollama default num_ctx (${OLLAMA_DEFAULT_NUM_CTX}; the model allows ${maxContextLength ?? 'unknown'})`
      }
  return { ...base, ...inUse, maxContextLength, vision: capability('vision'), tools: capability('tools') }
}

async function fromLlamaCpp(baseUrl: string, base: ModelInfo, options: DiscoveryOptions): Promise<ModelInfo | null> {
  const parsed = schemasOf().llamaProps.safeParse(await getJson(`${serverOrigin(baseUrl)}/props`, options))
  if (!parsed.success) return null
  const nCtx = parsed.data.default_generation_settings?.n_ctx ?? parsed.data.n_ctx
  if (!nCtx) return null
  return {
    ...base,
    contextWindow: nCtx,
    contextSource: 'llama.cpp /props n_ctx',
    vision: parsed.data.modalities?.vision ?? null,
    // true only means the template can: a server started without --jinja still refuses tools (HTTP 500),
    // which the run answers by switching to tool-less mode.
    tools: parsed.data.chat_template_caps?.supports_tools ?? null
  }
}

async function fromLmStudio(baseUrl: string, modelId: string, base: ModelInfo, options: DiscoveryOptions): Promise<ModelInfo | null> {
  const parsed = schemasOf().lmStudioModels.safeParse(await getJson(`${serverOrigin(baseUrl)}/api/v0/models`, options))
  if (!parsed.success) return null
  const model = parsed.data.data.find((entry) => entry.id === modelId)
  if (!model || (!model.loaded_context_length && !model.max_context_length)) return null
  return {
    ...base,
    contextWindow: model.loaded_context_length ?? model.max_context_length ?? null,
    contextSource: model.loaded_context_length ? 'LM Studio /api/v0/models loaded_context_length' : 'LM Studio /api/v0/models max_context_length',
    maxContextLength: model.max_context_length ?? null,
    vision: model.type ? model.type === 'vlm' : null,
    tools: model.capabilities ? model.capabilities.includes('tool_use') : null
  }
}

async function getJson(url: string, options: DiscoveryOptions, postBody?: unknown): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const headers: Record<string, string> = {
    ...(postBody === undefined ? {} : { 'content-type': 'application/json' }),
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {})
  }
  const response = await modelFetch(url, {
    method: postBody === undefined ? 'GET' : 'POST',
    headers,
    body: postBody === undefined ? undefined : JSON.stringify(postBody),
    signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  })
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`)
  return response.json()
}
