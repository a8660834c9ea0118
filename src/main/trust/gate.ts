import { AsyncLocalStorage } from 'node:async_hooks'
import type { ApprovalStore, TrustApproval } from './approvals-repo'
import { approvalNeededMessage, fingerprintOf, type TrustRequest } from './requests'

// The one place that decides whether a project may do something beyond its folder. Approved → go on;
// otherwise, on a terminal that can ask, ask; otherwise remember the request (for the dialog) and refuse with
// a message naming exactly what was asked — before anything is sent, read or started.

export class TrustRequiredError extends Error {
  override name = 'TrustRequiredError'
  constructor(readonly request: TrustRequest) {
    super(approvalNeededMessage(request))
  }
}

export interface TrustGateOptions {
  /** `--trust-project`: approve (and store) whatever this project asks, for this run and later ones. */
  approveAll?: boolean
  /** An interactive yes/no (a terminal); absent in the app, which shows a dialog instead. */
  ask?: (request: TrustRequest) => Promise<boolean>
  /** Told of each refused request, once per fingerprint (the app pushes it to the dialog). */
  onRefused?: (request: TrustRequest) => void
}

export class TrustGate {
  private readonly refused = new Map<string, TrustRequest>()
  /** Questions already asked on the terminal in this process, so two connections do not ask twice. */
  private readonly asking = new Map<string, Promise<boolean>>()

  constructor(
    readonly projectRoot: string,
    private readonly approvals: ApprovalStore,
    private readonly options: TrustGateOptions = {}
  ) {}

  isApproved(request: TrustRequest): boolean {
    return this.approvals.isApproved(this.projectRoot, fingerprintOf(request))
  }

  /** Resolves when the request is approved; throws TrustRequiredError otherwise. */
  async require(request: TrustRequest): Promise<void> {
    if (this.isApproved(request)) return
    const fingerprint = fingerprintOf(request)
    if (this.options.approveAll) {
      this.approve(request)
      return
    }
    const ask = this.options.ask
    if (ask) {
      let answer = this.asking.get(fingerprint)
      if (!answer) {
        answer = ask(request)
        this.asking.set(fingerprint, answer)
      }
      if (await answer) {
        this.approve(request)
        return
      }
    }
    if (!this.refused.has(fingerprint)) {
      this.refused.set(fingerprint, request)
      this.options.onRefused?.(request)
    }
    throw new TrustRequiredError(request)
  }

  approve(request: TrustRequest): TrustApproval {
    this.refused.delete(fingerprintOf(request))
    return this.approvals.approve(this.projectRoot, request)
  }

  revoke(fingerprint: string): void {
    this.approvals.revoke(this.projectRoot, fingerprint)
  }

  /** Whether a request can be approved while it is made (`--trust-project`, or a question on a terminal). */
  mayApproveNow(): boolean {
    return Boolean(this.options.approveAll || this.options.ask)
  }

  approved(): TrustApproval[] {
    return this.approvals.list(this.projectRoot)
  }

  /** Requests refused since the project opened (not approved since). */
  refusedRequests(): TrustRequest[] {
    return [...this.refused.values()]
  }
}

// Connections are opened deep inside the engines (a pooled session, a sync source), which know the server
// but not the project that asked. The project's gate travels with the work instead: every entry point that
// may connect (a chat run, a sync, an evaluation, a CLI command) runs inside `withTrustGate`.
const scope = new AsyncLocalStorage<TrustGate>()

export function withTrustGate<T>(gate: TrustGate, work: () => T): T {
  return scope.run(gate, work)
}

/** The gate of the work in progress; outside any, a request is refused (nothing is approved by default). */
export async function requireTrust(request: TrustRequest): Promise<void> {
  const gate = scope.getStore()
  if (!gate) throw new TrustRequiredError(request)
  await gate.require(request)
}
