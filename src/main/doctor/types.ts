import type { ModelInfo } from '../agent/discovery'
import type { DatabasePool } from '../agent/sql/database-pool'
import type { ProjectSnapshot } from '../project/types'
import type { CheckLine } from '../../shared/api'
import type { PromptPreview } from '../../shared/prompt'
import type { McpStatus, TrustEntryView, TrustRequest } from '../../shared/trust'

// The doctor is a list of small checks over one context. A check returns its lines (one per thing it
// looked at: each database, each model server); adding a check is one more entry in DOCTOR_CHECKS.

export type { CheckLine }

/** A model server the doctor looks at, as it answered (once, shared by every model check). */
export interface ServerProbe {
  baseUrl: string
  /** The model asked for (--model, the setting), else the first one the server lists. */
  model: string | null
  /** What GET /models listed; null when the server could not be reached. */
  models: ModelInfo[] | null
  /** Why the server could not be reached or listed, in the app's words. */
  error: string | null
}

export interface DoctorContext {
  root: string
  snapshot: ProjectSnapshot
  databases: () => DatabasePool
  /** What the project asks beyond its folder (its servers, its MCP commands), and the user's answers. */
  trust: {
    entries: () => TrustEntryView[]
    /**
     * Whether the request is approved, once asked the way the caller asks: the CLI approves with
     * --trust-project or asks yes/no on a terminal; the app only looks (its dialog and settings approve).
     */
    settle: (request: TrustRequest) => Promise<boolean>
  }
  /** Runs work that may connect to the project's servers under the project's approvals. */
  trusted: <T>(work: () => Promise<T>) => Promise<T>
  /** The MCP servers once every approved one has started or failed (an unapproved one is never started). */
  mcp: () => Promise<McpStatus>
  /** mcp.json's own problems (bad JSON, a server without a command), as opposed to notes on a server's tools. */
  mcpConfigProblems: () => string[]
  /** The store: where it is, and why it cannot be written (null: it can). */
  store: { file: string; problem: string | null; /** The run used a throwaway store: no earlier approval is in it. */ throwaway: boolean }
  /** Servers to check (each --endpoint, else the configured one, else those found on this machine). */
  servers: () => Promise<ServerProbe[]>
  /** The prompt a new question would send to this model now (budget against its real window). */
  preview: (endpoint: { baseUrl: string; model: string }) => Promise<PromptPreview>
  /** Sends one tiny chat request offering a tool; resolves with the server's error text, or null when accepted. */
  tryToolCall: (endpoint: { baseUrl: string; model: string }) => Promise<string | null>
  /** Prompt tokens the server counts for a tiny request, or null when it has no counting endpoint. */
  countTokens: (endpoint: { baseUrl: string; model: string }) => Promise<number | null>
}

export type DoctorCheck = (context: DoctorContext) => Promise<CheckLine[]>

export const pass = (id: string, title: string, detail: string): CheckLine => ({ id, title, status: 'pass', detail })
export const warn = (id: string, title: string, detail: string, fix?: string): CheckLine => ({ id, title, status: 'warn', detail, ...(fix ? { fix } : {}) })
export const fail = (id: string, title: string, detail: string, fix: string): CheckLine => ({ id, title, status: 'fail', detail, fix })
