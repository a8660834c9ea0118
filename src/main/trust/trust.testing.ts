import type { ApprovalStore, TrustApproval } from './approvals-repo'
import { TrustGate, withTrustGate } from './gate'
import { fingerprintOf } from './requests'

// For tests that are about something else than trust (a live Postgres, sync): a gate that approves what the
// project asks, kept in memory.

export function memoryApprovals(): ApprovalStore {
  const approvals = new Map<string, TrustApproval>()
  const key = (root: string, fingerprint: string): string => `${root}\0${fingerprint}`
  return {
    isApproved: (root, fingerprint) => approvals.has(key(root, fingerprint)),
    approve: (root, request) => {
      const approval = { fingerprint: fingerprintOf(request), request, approvedAt: new Date(0).toISOString() }
      approvals.set(key(root, approval.fingerprint), approval)
      return approval
    },
    revoke: (root, fingerprint) => void approvals.delete(key(root, fingerprint)),
    list: (root) => [...approvals.entries()].filter(([entry]) => entry.startsWith(`${root}\0`)).map(([, approval]) => approval)
  }
}

/** Runs `work` as if the user had approved everything the project at `root` asks. */
export function trustingEverything<T>(root: string, work: () => T): T {
  return withTrustGate(new TrustGate(root, memoryApprovals(), { approveAll: true }), work)
}
