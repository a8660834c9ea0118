import type { StoreContext } from '../store/context'
import { text, toRow } from '../store/row'
import { trustRequestSchema } from '../../shared/trust'
import { fingerprintOf, type TrustRequest } from './requests'

// Approvals in the store: per project folder (its real path), under the fingerprint of exactly what was shown.

export interface TrustApproval {
  fingerprint: string
  request: TrustRequest
  approvedAt: string
}

/** What the gate needs from storage; the store implements it, tests may pass a Map-backed one. */
export interface ApprovalStore {
  isApproved: (projectRoot: string, fingerprint: string) => boolean
  approve: (projectRoot: string, request: TrustRequest) => TrustApproval
  revoke: (projectRoot: string, fingerprint: string) => void
  list: (projectRoot: string) => TrustApproval[]
}

export class TrustApprovalsRepo implements ApprovalStore {
  constructor(private readonly context: StoreContext) {}

  isApproved(projectRoot: string, fingerprint: string): boolean {
    return this.context.read(
      () => this.context.statement(`SELECT 1 FROM trust_approvals WHERE project_root = ? AND fingerprint = ?`).get(projectRoot, fingerprint) !== undefined
    )
  }

  approve(projectRoot: string, request: TrustRequest): TrustApproval {
    const fingerprint = fingerprintOf(request)
    const approvedAt = this.context.now()
    this.context.write(() =>
      this.context
        .statement(
          `INSERT INTO trust_approvals (project_root, fingerprint, kind, request_json, approved_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (project_root, fingerprint) DO UPDATE SET request_json = excluded.request_json`
        )
        .run(projectRoot, fingerprint, request.kind, JSON.stringify(request), approvedAt)
    )
    return { fingerprint, request, approvedAt }
  }

  revoke(projectRoot: string, fingerprint: string): void {
    this.context.write(() => this.context.statement(`DELETE FROM trust_approvals WHERE project_root = ? AND fingerprint = ?`).run(projectRoot, fingerprint))
  }

  list(projectRoot: string): TrustApproval[] {
    const rows = this.context.read(() =>
      this.context.statement(`SELECT fingerprint, request_json, approved_at FROM trust_approvals WHERE project_root = ? ORDER BY approved_at, fingerprint`).all(projectRoot)
    )
    return rows.flatMap((value) => {
      const row = toRow(value)
      // A row this version cannot read is left out rather than failing the whole list.
      const request = trustRequestSchema().safeParse(safeJson(text(row, 'request_json')))
      return request.success ? [{ fingerprint: text(row, 'fingerprint'), request: request.data, approvedAt: text(row, 'approved_at') }] : []
    })
  }
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value)
  } catch {
    return null
  }
}
