// The local model servers Glassbox knows, by their default loopback address. Every request goes to the
// endpoint the user configured (or one of these presets); nothing else is ever contacted.

import type { EndpointSetting, ServerKind } from '../../shared/api'

export type { EndpointSetting, ServerKind }

export interface ServerPreset {
  kind: ServerKind
  label: string
  /** OpenAI-compatible base URL, ending in /v1. */
  baseUrl: string
  /** For a server the user added that wants one. */
  apiKey?: string
}


/**
 * The servers Glassbox looks at: the user's own first (their kind, port and key), then every preset on a
 * port nobody added — so auto-detection also probes the ports the user added.
 */
export function serversToProbe(added: readonly EndpointSetting[], presets: readonly ServerPreset[] = SERVER_PRESETS): ServerPreset[] {
  const own = addedServers(added)
  return [...own, ...presets.filter((preset) => !own.some((server) => server.baseUrl === preset.baseUrl))]
}

/** The servers the user added, checked and normalised (an entry that is not a valid address is skipped). */
export function addedServers(added: readonly EndpointSetting[]): ServerPreset[] {
  const own: ServerPreset[] = []
  for (const entry of added) {
    let baseUrl: string
    try {
      baseUrl = normalizeBaseUrl(entry.url)
    } catch {
      continue
    }
    if (own.some((server) => server.baseUrl === baseUrl)) continue
    const label = SERVER_PRESETS.find((preset) => preset.kind === entry.preset)?.label ?? 'Server'
    own.push({ kind: entry.preset, label: `${label} (added)`, baseUrl, ...(entry.apiKey ? { apiKey: entry.apiKey } : {}) })
  }
  return own
}

/** The key the user gave for this server, if any. */
export function apiKeyFor(baseUrl: string, added: readonly EndpointSetting[]): string | undefined {
  return addedServers(added).find((server) => server.baseUrl === baseUrl)?.apiKey
}

export const SERVER_PRESETS: readonly ServerPreset[] = [
  { kind: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  { kind: 'llama.cpp', label: 'llama.cpp server', baseUrl: 'http://127.0.0.1:8080/v1' },
  { kind: 'lmstudio', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
  { kind: 'vllm', label: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1' },
  { kind: 'jan', label: 'Jan', baseUrl: 'http://127.0.0.1:1337/v1' }
]

export class InvalidEndpointError extends Error {
  override name = 'InvalidEndpointError'
}

/**
 * Checks and normalises a user-given endpoint: http(s) only, no credentials in it, no trailing slash, and
 * `/v1` added when only the server's origin was given (http://127.0.0.1:11434 → …/v1).
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL
  try {
    url = new URL(input.trim())
  } catch {
    throw new InvalidEndpointError(`"${input}" is not a URL. Give the server's address, e.g. http://127.0.0.1:11434/v1`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidEndpointError(`"${input}" must start with http:// or https://`)
  if (url.username || url.password) throw new InvalidEndpointError(`"${input}" must not contain a user name or password`)
  url.search = ''
  url.hash = ''
  const path = url.pathname.replace(/\/+$/, '')
  url.pathname = path === '' ? '/v1' : path
  return url.toString().replace(/\/+$/, '')
}

/** The server root (where Ollama's /api/show, llama.cpp's /props and LM Studio's /api/v0 live). */
export function serverOrigin(baseUrl: string): string {
  const url = new URL(baseUrl)
  url.pathname = url.pathname.replace(/\/v1\/?$/, '') || '/'
  return url.toString().replace(/\/+$/, '')
}

export function isLoopbackUrl(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host)
}

/** The preset whose default port the URL uses, or 'custom'. */
export function kindOf(baseUrl: string): ServerKind {
  const { port } = new URL(baseUrl)
  return SERVER_PRESETS.find((preset) => new URL(preset.baseUrl).port === port)?.kind ?? 'custom'
}

export const START_SERVER_GUIDANCE = [
  'No local model server is running. Start one, then try again:',
  '  Ollama:     install from https://ollama.com, then `OLLAMA_CONTEXT_LENGTH=16384 ollama serve` and `ollama pull qwen3:8b`',
  '              (serves http://127.0.0.1:11434/v1)',
  '  llama.cpp:  `llama-server -m model.gguf --jinja -c 16384` (serves http://127.0.0.1:8080/v1;',
  '              --jinja enables tool calls, -c sets the context window)',
  '  LM Studio:  load a model and start the local server (http://127.0.0.1:1234/v1)',
  'Or pass --endpoint URL for a server elsewhere.'
].join('\n')
