import { fail, pass, type DoctorCheck } from './types'
import type { CheckLine } from '../../shared/api'

// Each thing the project asks beyond its folder (a server to connect to and the environment variables it
// would send, a process to start): approved or not, named exactly as the approval dialog names it.

export const APPROVE_FIX = 'Approve it in Settings → Project trust, or run with --trust-project.'

export const approvalsGiven: DoctorCheck = async ({ trust, store }) => {
  const title = 'Approval'
  const asked = trust.entries().filter((entry) => entry.askedNow)
  if (asked.length === 0) return [pass('approval', title, 'this project asks for nothing beyond its folder (no database server, no MCP server)')]
  const unreadable = store.throwaway ? ' (earlier approvals could not be read: the store is not usable, see its line)' : ''
  const lines: CheckLine[] = []
  for (const entry of asked) {
    // The command line asks here (or --trust-project approves); the app only reports.
    const approved = entry.approved || (await trust.settle(entry.request))
    lines.push(
      approved
        ? pass('approval', title, `approved: ${entry.description}`)
        : fail('approval', title, `not approved: ${entry.description}. Nothing is sent or started until it is${unreadable}`, APPROVE_FIX)
    )
  }
  return lines
}

/** The fix when a value the project reads from the environment (a password, an MCP server's key) is missing. */
export function unsetVariableFix(message: string): string | null {
  const name = /the environment variable (\S+) is not set/.exec(message)?.[1]
  return name ? `Set ${name} in the environment Glassbox is started from (the shell, or the app's launcher), then check again.` : null
}
