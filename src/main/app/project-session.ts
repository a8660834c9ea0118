import { serverEngineForType } from '../engines/registry'
import { createDatabasePool, type DatabasePool } from '../agent/sql/database-pool'
import { loadProject, loadProjectForPrompt } from '../project/load'
import { openProject, type ProjectModel } from '../project/watch'
import type { ProjectSnapshot } from '../project/types'
import type { Store } from '../store'
import type { ProjectInfo } from '../../shared/api'
import { exampleQuestions } from './example-questions'
import { describeRequest, fingerprintOf, isMcpServerRequest, serverTrustRequest, TrustGate, withTrustGate, type TrustGateOptions, type TrustRequest } from '../trust'
import { McpHub } from '../mcp/hub'
import { readMcpConfig } from '../mcp/config'
import type { McpStatus, TrustEntryView } from '../../shared/trust'

// The open project: its live model (watched in the app, loaded once for the CLI), its row in the store and
// the databases the agent may query. The pool is rebuilt only when the snapshot changes.

export interface SessionOptions {
  watch: boolean
  /** One-shot commands: read only what the first prompt needs (the full tree walk is skipped). */
  readForPromptOnly?: boolean
  trust?: TrustGateOptions
  onMcpChange?: (status: McpStatus) => void
}

export class ProjectSession {
  private pool: { version: number; pool: DatabasePool } | null = null

  private constructor(
    private readonly model: ProjectModel,
    readonly projectId: number,
    /** What this project may do beyond its folder, as the user approved it. */
    readonly trust: TrustGate,
    /** The project's MCP servers (started only once approved). */
    readonly mcp: McpHub
  ) {}

  static async open(store: Store, path: string, options: SessionOptions): Promise<ProjectSession> {
    const read = options.readForPromptOnly ? loadProjectForPrompt : loadProject
    const model = options.watch ? await openProject(path) : staticModel(await read(path))
    const snapshot = model.snapshot()
    const record = store.projects.ensure(snapshot.root, snapshot.name)
    const trust = new TrustGate(snapshot.root, store.trust, options.trust)
    const mcp = new McpHub(snapshot.root, trust, { watch: options.watch, onChange: options.onMcpChange, onlyWhenOneMayStart: options.readForPromptOnly })
    const session = new ProjectSession(model, record.id, trust, mcp)
    // Servers start in the background: a slow one must not hold the project's opening.
    session.mcpLoaded = mcp.load().then(
      () => undefined,
      () => undefined
    )
    return session
  }

  /** Settles once every approved MCP server has started or failed (the CLI waits for it). */
  mcpLoaded: Promise<void> = Promise.resolve()

  /** Everything the project asks now (its servers, its MCP servers) and every approval it was given. */
  trustEntries(): TrustEntryView[] {
    const approved = new Map(this.trust.approved().map((approval) => [approval.fingerprint, approval]))
    const asked = [...this.trustRequests(), ...this.trust.refusedRequests()]
    const entries = new Map<string, TrustEntryView>()
    for (const request of asked) {
      const fingerprint = fingerprintOf(request)
      if (entries.has(fingerprint)) continue
      const approval = approved.get(fingerprint)
      entries.set(fingerprint, { fingerprint, request, description: describeRequest(request), approved: approval !== undefined, approvedAt: approval?.approvedAt ?? null, askedNow: true })
    }
    for (const approval of approved.values()) {
      if (entries.has(approval.fingerprint)) continue
      const { fingerprint, request, approvedAt } = approval
      entries.set(fingerprint, { fingerprint, request, description: describeRequest(request), approved: true, approvedAt, askedNow: false })
    }
    return [...entries.values()]
  }

  /** Approves one request the project makes (by the fingerprint shown) and starts what it allows. */
  async approve(fingerprint: string): Promise<TrustEntryView[]> {
    const request = [...this.trustRequests(), ...this.trust.refusedRequests()].find((candidate) => fingerprintOf(candidate) === fingerprint)
    if (!request) throw new Error('This project does not ask for that (its configuration may have changed): reopen Settings → Project trust.')
    this.trust.approve(request)
    if (isMcpServerRequest(request)) await this.mcp.restart(request.name).catch(() => undefined)
    return this.trustEntries()
  }

  /** Revokes an approval: open connections close, a server it allowed stops. */
  async revoke(fingerprint: string): Promise<TrustEntryView[]> {
    const approval = this.trust.approved().find((candidate) => candidate.fingerprint === fingerprint)
    this.trust.revoke(fingerprint)
    this.pool?.pool.close()
    this.pool = null
    if (approval && isMcpServerRequest(approval.request)) await this.mcp.restart(approval.request.name).catch(() => undefined)
    return this.trustEntries()
  }

  mcpStatus(): McpStatus {
    return this.mcp.status()
  }

  private trustRequests(): TrustRequest[] {
    const servers = this.snapshot().databases.flatMap((database) => (database.server ? [serverTrustRequest(database.server, serverEngineForType(database.type)?.id ?? database.type, database.name)] : []))
    return [...servers, ...readMcpConfig(this.snapshot().root).servers.map((spec) => spec.trust)]
  }

  /** Runs work that may connect to the project's servers under this project's approvals. */
  trusted<T>(work: () => T): T {
    return withTrustGate(this.trust, work)
  }

  snapshot(): ProjectSnapshot {
    return this.model.snapshot()
  }

  /** The snapshot a prompt asked for now must see (see ProjectModel.freshSnapshot). */
  freshSnapshot(): Promise<ProjectSnapshot> {
    return this.model.freshSnapshot()
  }

  onChange(listener: (snapshot: ProjectSnapshot) => void): () => void {
    return this.model.onChange(listener)
  }

  databases(): DatabasePool {
    const snapshot = this.snapshot()
    if (this.pool?.version !== snapshot.version) {
      this.pool?.pool.close()
      this.pool = { version: snapshot.version, pool: createDatabasePool(snapshot, snapshot.files) }
    }
    return this.pool.pool
  }

  info(): ProjectInfo {
    return projectInfo(this.snapshot())
  }

  async close(): Promise<void> {
    this.pool?.pool.close()
    this.pool = null
    await this.mcp.close()
    await this.model.close()
  }
}

export function projectInfo(snapshot: ProjectSnapshot): ProjectInfo {
  return {
    root: snapshot.root,
    name: snapshot.name,
    tables: snapshot.tables.map(({ type, database, schema, table }) => ({ type, database, schema, table })),
    skills: snapshot.skills.map(({ name, description, location }) => ({ name, description, location })),
    tests: snapshot.tests,
    diagnostics: snapshot.diagnostics,
    examples: exampleQuestions(snapshot)
  }
}

/** A project read once, for one-shot commands: no watcher to keep the process alive. */
function staticModel(snapshot: ProjectSnapshot): ProjectModel {
  return { snapshot: () => snapshot, freshSnapshot: () => Promise.resolve(snapshot), onChange: () => () => undefined, close: async () => undefined }
}
