export { TrustApprovalsRepo, type ApprovalStore, type TrustApproval } from './approvals-repo'
export { requireTrust, TrustGate, TrustRequiredError, withTrustGate, type TrustGateOptions } from './gate'
export { approvalNeededMessage, commandLine, describeRequest, fingerprintOf, isMcpServerRequest, type TrustRequest } from './requests'
export { resolveTrustedServer, serverTrustRequest, type TrustedServer } from './server-trust'
