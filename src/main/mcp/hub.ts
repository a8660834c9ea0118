import { join } from 'node:path'
import type { FSWatcher } from 'chokidar'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { CONFIG_FILE } from '../project/config'
import { commandLine, fingerprintOf, isMcpServerRequest, type TrustGate } from '../trust'
import type { McpServerState, McpServerView, McpStatus } from '../../shared/trust'
import { errorMessage } from '../../shared/error-message'
import { readMcpConfig, substituteVariables, type McpServerSpec } from './config'
import { mcpToolView, toMcpTool, type CallResult, type McpToolHandle } from './mcp-tool'
import type { AgentTool } from '../agent/tools'
import { formatCount } from '../../shared/format-count'

// The project's MCP servers while it is open: each approved one started (stdio, or streamable HTTP on this
// machine), its tools listed, its state kept for settings and `glassbox mcp`. An unapproved server is
// listed and never started. A changed mcp.json restarts what changed (debounced); servers stop with the
// project.

export interface McpHubOptions {
  /** Watch nao_config.yaml and mcp.json and reload on change (the app); the CLI reads them once. */
  watch?: boolean
  /** Told whenever a server's state changes. */
  onChange?: (status: McpStatus) => void
  /** How long a server may take to start and list its tools. */
  startTimeoutMs?: number
  /** How long one tool call may take. */
  callTimeoutMs?: number
  /** Quiet time after a file change before reloading. */
  debounceMs?: number
  /**
   * Read the config only when a server may start: one was approved before, or the gate may approve one now. For
   * a one-shot prompt, which shows only started servers' tools (reading and checking mcp.json is ~1.5 ms of it).
   */
  onlyWhenOneMayStart?: boolean
}

const DEFAULT_START_TIMEOUT_MS = 30_000
const DEFAULT_CALL_TIMEOUT_MS = 60_000
const STDERR_TAIL_CHARS = 2_000
/** A bigger message from a server is an error, not something to hold in memory. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024
const DOWNLOADERS = new Set(['npx', 'uvx', 'bunx', 'pnpx', 'pipx'])

interface Runtime {
  spec: McpServerSpec
  fingerprint: string
  state: McpServerState
  client: Client | null
  tools: McpToolHandle[]
  error: string | null
  stderr: string
  /** Bumped on every start and stop, so a late event of an earlier process changes nothing. */
  generation: number
  /** Tools not offered to the model, each with the reason. */
  leftOut: string[]
}

export class McpHub {
  private readonly servers = new Map<string, Runtime>()
  private configFile: string | null = null
  private problems: string[] = []
  private watcher: FSWatcher | null = null
  /** chokidar loads on first use: a one-shot command that never watches never pays for it. */
  private watcherStarting: Promise<void> | null = null
  private reloadTimer: NodeJS.Timeout | null = null
  private closed = false

  constructor(
    private readonly root: string,
    private readonly trust: TrustGate,
    private readonly options: McpHubOptions = {}
  ) {}

  /** Reads the config and starts what is approved; resolves when every start has settled. */
  load(): Promise<McpStatus> {
    // One at a time: a file change during a load must not start a second process for the same server.
    const next = this.loading.then(() => this.loadNow())
    this.loading = next.then(
      () => undefined,
      () => undefined
    )
    return next
  }

  private loading: Promise<void> = Promise.resolve()

  private async loadNow(): Promise<McpStatus> {
    if (this.options.onlyWhenOneMayStart && !this.trust.mayApproveNow() && !this.trust.approved().some((approval) => isMcpServerRequest(approval.request))) {
      return this.status()
    }
    const config = readMcpConfig(this.root)
    this.configFile = config.file
    this.problems = config.problems
    const wanted = new Map(config.servers.map((spec) => [spec.name, spec]))
    const starts: Promise<void>[] = []
    for (const [name, runtime] of this.servers) {
      const next = wanted.get(name)
      if (!next || fingerprintOf(next.trust) !== runtime.fingerprint) {
        await this.stop(runtime)
        this.servers.delete(name)
      }
    }
    for (const spec of config.servers) {
      if (this.servers.has(spec.name)) continue
      const runtime: Runtime = { spec, fingerprint: fingerprintOf(spec.trust), state: 'not-approved', client: null, tools: [], error: null, stderr: '', generation: 0, leftOut: [] }
      this.servers.set(spec.name, runtime)
      // Approved earlier, or now (--trust-project, a yes on the terminal); otherwise listed for the dialog.
      starts.push(
        this.trust.require(spec.trust).then(
          () => (this.servers.get(spec.name) === runtime ? this.start(runtime) : undefined),
          () => undefined
        )
      )
    }
    if (this.options.watch) this.watchFiles()
    this.changed()
    await Promise.all(starts)
    return this.status()
  }

  /** Stops and starts one server again (the reconnect button); refuses one that is not approved. */
  async restart(name: string): Promise<McpStatus> {
    const runtime = this.servers.get(name)
    if (!runtime) throw new Error(`No MCP server named "${name}" in ${this.configFile ?? 'this project'}.`)
    await this.stop(runtime)
    if (!this.trust.isApproved(runtime.spec.trust)) {
      runtime.state = 'not-approved'
      this.changed()
      return this.status()
    }
    await this.start(runtime)
    return this.status()
  }

  status(): McpStatus {
    const runtimes = [...this.servers.values()]
    const leftOut = runtimes.flatMap((runtime) => runtime.leftOut.map((reason) => `${runtime.spec.name}: ${reason}`))
    return { configFile: this.configFile, servers: runtimes.map((runtime) => this.view(runtime)), problems: [...this.problems, ...leftOut] }
  }

  /** The tools of every ready server, as the agent offers them. */
  tools(): AgentTool[] {
    return [...this.servers.values()].filter((runtime) => runtime.state === 'ready').flatMap((runtime) => runtime.tools.map((tool) => tool.agentTool))
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.reloadTimer) clearTimeout(this.reloadTimer)
    await this.watcherStarting
    await this.watcher?.close()
    this.watcher = null
    await Promise.all([...this.servers.values()].map((runtime) => this.stop(runtime)))
  }

  private view(runtime: Runtime): McpServerView {
    const { spec } = runtime
    return {
      name: spec.name,
      state: runtime.state,
      commandLine: spec.transport === 'stdio' ? commandLine(spec.command, spec.args) : spec.url,
      fingerprint: runtime.fingerprint,
      tools: runtime.state === 'ready' ? runtime.tools.map(mcpToolView) : [],
      error: runtime.error,
      stderrTail: runtime.stderr.trim() === '' ? null : runtime.stderr.trim()
    }
  }

  private async start(runtime: Runtime): Promise<void> {
    const generation = ++runtime.generation
    Object.assign(runtime, { state: 'starting', error: null, stderr: '', tools: [], client: null, leftOut: [] })
    this.changed()
    const current = (): boolean => runtime.generation === generation && !this.closed
    let client: Client | null = null
    try {
      // Inside the try: an SDK that cannot load fails this server like any other start failure.
      const sdk = await loadSdk()
      if (!current()) return
      client = new sdk.Client({ name: 'glassbox', version: '0.1.0' })
      const transport = this.transportFor(sdk, runtime, current)
      client.onclose = () => {
        if (!current() || runtime.state === 'stopped') return
        runtime.state = 'failed'
        runtime.error = runtime.error ?? 'the server stopped' + (runtime.spec.transport === 'stdio' ? ' (its process exited)' : '')
        runtime.client = null
        this.changed()
      }
      await withTimeout(client.connect(transport), this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS, 'did not answer the MCP handshake')
      const listed = await listAllTools(client, this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS)
      if (!current()) {
        await client.close().catch(() => undefined)
        return
      }
      runtime.client = client
      const { handles, leftOut } = toolHandles(runtime.spec.name, listed, (tool, args, signal) => this.call(runtime, tool, args, signal))
      runtime.tools = handles
      runtime.leftOut = leftOut
      runtime.state = 'ready'
    } catch (error) {
      await client?.close().catch(() => undefined)
      if (!current()) return
      runtime.state = 'failed'
      runtime.error = explainStartFailure(runtime.spec, errorMessage(error), runtime.stderr)
    }
    this.changed()
  }

  private transportFor(sdk: McpSdk, runtime: Runtime, current: () => boolean): Transport {
    const { spec } = runtime
    if (spec.transport === 'http') {
      const headers = Object.fromEntries(Object.entries(spec.headers).map(([key, value]) => [key, substituteVariables(value)]))
      return new sdk.StreamableHTTPClientTransport(new URL(substituteVariables(spec.url)), { requestInit: { headers } })
    }
    const transport = new sdk.StdioClientTransport({
      command: substituteVariables(spec.command),
      args: spec.args.map((arg) => substituteVariables(arg)),
      // The server gets the variables mcp.json gives it (and the SDK's short list of safe ones: PATH, HOME…).
      env: Object.fromEntries(Object.entries(spec.env).map(([key, value]) => [key, substituteVariables(value)])),
      cwd: this.root,
      stderr: 'pipe',
      maxBufferSize: MAX_MESSAGE_BYTES
    })
    transport.stderr?.on('data', (chunk: Buffer) => {
      if (!current()) return
      runtime.stderr = (runtime.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS)
    })
    return transport
  }

  private async call(runtime: Runtime, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallResult> {
    const client = runtime.client
    if (runtime.state !== 'ready' || !client) throw new Error(`the MCP server ${runtime.spec.name} is ${runtime.state === 'failed' ? 'down' : runtime.state}; restart it in Settings → MCP servers`)
    const timeoutMs = this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: timeoutMs, maxTotalTimeout: timeoutMs })) as CallResult
    } catch (error) {
      const message = errorMessage(error)
      if (/timed out|timeout/i.test(message)) throw new Error(`${runtime.spec.name} did not answer within ${Math.round(timeoutMs / 1000)} s (${tool})`)
      throw error
    }
  }

  private async stop(runtime: Runtime): Promise<void> {
    runtime.generation++
    const client = runtime.client
    runtime.client = null
    runtime.tools = []
    if (runtime.state !== 'not-approved') runtime.state = 'stopped'
    // Closing the stdio transport ends the process (stdin closed, then SIGTERM, then SIGKILL).
    await client?.close().catch(() => undefined)
  }

  private changed(): void {
    if (!this.closed) this.options.onChange?.(this.status())
  }

  private watchFiles(): void {
    const files = [join(this.root, CONFIG_FILE), ...(this.configFile ? [join(this.root, this.configFile)] : [])]
    if (this.watcherStarting) {
      void this.watcherStarting.then(() => this.watcher?.add(files))
      return
    }
    this.watcherStarting = import('chokidar').then(({ watch }) => {
      if (this.closed) return
      this.watcher = watch(files, { ignoreInitial: true, persistent: true })
      this.watcher.on('all', () => {
        if (this.reloadTimer) clearTimeout(this.reloadTimer)
        this.reloadTimer = setTimeout(() => {
          this.reloadTimer = null
          if (!this.closed) void this.load().catch(() => undefined)
        }, this.options.debounceMs ?? 300)
      })
    })
  }
}


interface ListedTool {
  name: string
  description?: string
  inputSchema: Record<string, unknown>
}

/** The MCP SDK (with its JSON-schema validator) loads when a server first starts: a project without one never pays for it. */
type McpSdk = Awaited<ReturnType<typeof importSdk>>
let sdkLoading: ReturnType<typeof importSdk> | null = null

async function importSdk() {
  const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js')
  ])
  return { Client, StdioClientTransport, StreamableHTTPClientTransport }
}

function loadSdk(): ReturnType<typeof importSdk> {
  // A load that failed is not kept: a restart of the server tries again.
  sdkLoading ??= importSdk().catch((error: unknown) => {
    sdkLoading = null
    throw error
  })
  return sdkLoading
}

async function listAllTools(client: Client, timeoutMs: number): Promise<ListedTool[]> {
  const tools: ListedTool[] = []
  let cursor: string | undefined
  // Bounded: a server that pages for ever cannot keep the project from opening.
  for (let page = 0; page < 20; page++) {
    const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs })
    tools.push(...result.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })))
    cursor = result.nextCursor
    if (!cursor) break
  }
  return tools
}

/** Every tool's schema is sent with every request: a server cannot fill the model's window with them. */
const MAX_TOOLS_PER_SERVER = 64
const MAX_SCHEMA_CHARS = 16_000

function toolHandles(server: string, listed: ListedTool[], call: McpToolHandle['call']): { handles: McpToolHandle[]; leftOut: string[] } {
  const seen = new Set<string>()
  const handles: McpToolHandle[] = []
  const leftOut: string[] = []
  for (const tool of listed) {
    const handle = toMcpTool(server, tool, call)
    const schemaChars = JSON.stringify(handle.inputSchema).length
    if (schemaChars > MAX_SCHEMA_CHARS) leftOut.push(`tool ${tool.name.slice(0, 80)} left out: its input schema is ${formatCount(schemaChars)} characters (at most ${formatCount(MAX_SCHEMA_CHARS)})`)
    // Two tools whose names differ only in characters the API does not allow: the first one wins.
    else if (seen.has(handle.agentTool.name)) leftOut.push(`tool ${tool.name.slice(0, 80)} left out: another tool is already called ${handle.agentTool.name}`)
    else if (handles.length >= MAX_TOOLS_PER_SERVER) leftOut.push(`tool ${tool.name.slice(0, 80)} left out: a server offers at most ${MAX_TOOLS_PER_SERVER} tools`)
    else {
      seen.add(handle.agentTool.name)
      handles.push(handle)
    }
  }
  return { handles, leftOut }
}

/** The failure in words a person can act on; a downloader (`npx -y …@latest`) offline says so. */
export function explainStartFailure(spec: McpServerSpec, message: string, stderr: string): string {
  if (spec.transport === 'http') return `could not reach ${spec.url}: ${message}`
  const program = spec.command.split(/[\\/]/).pop() ?? spec.command
  if (/ENOENT/.test(message)) return `could not start: the command "${spec.command}" was not found`
  if (DOWNLOADERS.has(program)) {
    const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|network|offline|fetch failed|getaddrinfo/i.test(stderr)
    const packageName = spec.args.find((arg) => !arg.startsWith('-')) ?? 'the package'
    if (offline || /Connection closed|exited/i.test(message)) {
      return `${program} could not download ${packageName}${offline ? ' (no network: Glassbox runs offline)' : ''}; install it locally and point "command" at it. (${message})`
    }
  }
  return `could not start: ${message}`
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${Math.round(ms / 1000)} s`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}
