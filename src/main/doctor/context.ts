import { detectServers, listModels } from '../agent/discovery'
import { normalizeBaseUrl, START_SERVER_GUIDANCE } from '../agent/endpoints'
import { classifyModelError } from '../agent/model-errors'
import { modelFetch } from '../agent/model-fetch'
import { ServerTokenCounter } from '../agent/server-token-count'
import { explainRunFailure } from '../app/run-failure'
import type { Glassbox } from '../app/glassbox'
import type { Store } from '../store'
import { readMcpConfig } from '../mcp/config'
import { TrustRequiredError } from '../trust'
import { errorMessage } from '../../shared/error-message'
import type { DoctorContext, ServerProbe } from './types'

// The doctor's context from a running Glassbox: its open project, its store, its model settings. The CLI
// and the "Check setup" panel build it the same way, so both check what a question would really meet.

const LIST_TIMEOUT_MS = 3_000
/** A first request may load the model from disk: give it time, but never hang the report. */
const TOOL_PROBE_TIMEOUT_MS = 60_000

export interface DoctorTargets {
  /** Servers to check; empty: the configured one, else every one found on this machine. */
  endpoints: string[]
  model: string | null
  /** Why the store could not be opened for writing (the CLI then ran on a temporary one). */
  storeProblem?: string | null
  storeFile?: string
  /**
   * Ask for what the project needs the way the command line does (--trust-project, a yes/no on a terminal);
   * otherwise (the app) an unapproved request is only reported, never asked, so checking opens no dialog.
   */
  askTrust?: boolean
}

export function doctorContext(glassbox: Glassbox, targets: DoctorTargets): DoctorContext {
  const session = glassbox.session()
  let servers: Promise<ServerProbe[]> | null = null
  return {
    root: session.snapshot().root,
    snapshot: session.snapshot(),
    databases: () => session.databases(),
    trust: {
      entries: () => session.trustEntries(),
      settle: async (request) => {
        if (session.trust.isApproved(request)) return true
        if (!targets.askTrust) return false
        try {
          await session.trust.require(request)
          return true
        } catch (error) {
          if (error instanceof TrustRequiredError) return false
          throw error
        }
      }
    },
    trusted: (work) => session.trusted(work),
    mcp: async () => {
      await session.mcpLoaded
      return session.mcpStatus()
    },
    mcpConfigProblems: () => readMcpConfig(session.snapshot().root).problems,
    store: {
      file: targets.storeFile ?? glassbox.store.file,
      problem: targets.storeProblem !== undefined ? targets.storeProblem : storeWriteProblem(glassbox.store),
      throwaway: targets.storeProblem !== undefined && targets.storeProblem !== null
    },
    servers: () => (servers ??= probeServers(glassbox, targets)),
    preview: ({ baseUrl, model }) => glassbox.preview({ question: '', resolveModel: true, model: { endpoint: baseUrl, model } }),
    tryToolCall,
    countTokens: (endpoint) => new ServerTokenCounter().count(endpoint, [{ role: 'user', content: 'Hello' }], [])
  }
}

async function probeServers(glassbox: Glassbox, targets: DoctorTargets): Promise<ServerProbe[]> {
  const settings = await glassbox.getSettings()
  const named = targets.endpoints.length > 0 ? targets.endpoints : settings.endpoint ? [settings.endpoint] : []
  const model = targets.model ?? settings.model
  if (named.length > 0) return Promise.all(named.map((endpoint) => probe(normalizeBaseUrl(endpoint), model)))
  const found = await detectServers({ timeoutMs: LIST_TIMEOUT_MS })
  if (found.length === 0) return [{ baseUrl: 'this machine', model, models: null, error: START_SERVER_GUIDANCE }]
  return found.map((server) => ({ baseUrl: server.baseUrl, model, models: server.models, error: null }))
}

async function probe(baseUrl: string, model: string | null): Promise<ServerProbe> {
  try {
    return { baseUrl, model, models: await listModels(baseUrl, { timeoutMs: LIST_TIMEOUT_MS }), error: null }
  } catch (error) {
    // The words a failed run would use ("nothing is listening there"), with the command that starts it.
    const reason = classifyModelError(error, baseUrl).message
    return { baseUrl, model, models: null, error: await explainRunFailure(reason, { endpoint: { baseUrl, model: model ?? '' }, budget: null }) }
  }
}

/** One tiny non-streamed request offering a do-nothing tool; null when the server took it. */
async function tryToolCall({ baseUrl, model }: { baseUrl: string; model: string }): Promise<string | null> {
  try {
    const response = await modelFetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        messages: [{ role: 'user', content: 'Reply with OK.' }],
        tools: [{ type: 'function', function: { name: 'glassbox_probe', description: 'Does nothing.', parameters: { type: 'object', properties: {} } } }],
        max_tokens: 1,
        stream: false
      }),
      signal: AbortSignal.timeout(TOOL_PROBE_TIMEOUT_MS)
    })
    if (response.ok) {
      await response.body?.cancel()
      return null
    }
    const text = (await response.text()).replace(/\s+/g, ' ').trim()
    return `HTTP ${response.status}: ${text.slice(0, 300)}`
  } catch (error) {
    return errorMessage(error)
  }
}

/** A real write, rolled back: opening a store succeeds on a file that later refuses every change. */
export function storeWriteProblem(store: Store): string | null {
  const rollback = new Error('rollback')
  try {
    store.db.transaction(() => {
      store.db.exec('CREATE TABLE glassbox_doctor_probe (x INTEGER); DROP TABLE glassbox_doctor_probe;')
      throw rollback
    })()
  } catch (error) {
    if (error === rollback) return null
    return errorMessage(error).split('\n')[0]
  }
  return null
}
