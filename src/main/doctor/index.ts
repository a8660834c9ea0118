import type { CheckLine, DoctorReport } from '../../shared/api'
import { errorMessage } from '../../shared/error-message'
import { databasesReachable } from './database-checks'
import { mcpServersReady } from './mcp-checks'
import { modelServers } from './model-checks'
import { projectParses, testCasesParse } from './project-checks'
import { storeWritable } from './store-check'
import { approvalsGiven } from './trust-checks'
import { fail, type DoctorCheck, type DoctorContext } from './types'

export type { DoctorContext, DoctorCheck, ServerProbe } from './types'

/**
 * Every check, in the order the report lists them; a new check is one more entry. Approvals come before the
 * checks that need them: on a terminal that is where the user is asked.
 */
export const DOCTOR_CHECKS: ReadonlyArray<{ name: string; check: DoctorCheck }> = [
  { name: 'project', check: projectParses },
  { name: 'tests', check: testCasesParse },
  { name: 'approvals', check: approvalsGiven },
  { name: 'databases', check: databasesReachable },
  { name: 'mcp servers', check: mcpServersReady },
  { name: 'model servers', check: modelServers },
  { name: 'store', check: storeWritable }
]

/** Runs the checks one after another (a local server serves one request well); a check that throws is one ✗ line. */
export async function runDoctor<Context = DoctorContext>(
  context: Context,
  checks: ReadonlyArray<{ name: string; check: (context: Context) => Promise<CheckLine[]> }>
): Promise<DoctorReport> {
  const lines: CheckLine[] = []
  for (const { name, check } of checks) {
    try {
      lines.push(...(await check(context)))
    } catch (error) {
      lines.push(fail(name, `Check ${name}`, `the check itself failed: ${errorMessage(error).split('\n')[0]}`, 'Run it again; if it keeps failing, report it with this line.'))
    }
  }
  return { ok: lines.every((line) => line.status !== 'fail'), lines }
}

const SYMBOL = { pass: '✓', fail: '✗', warn: '!' } as const

/** One line per check, then its fix indented under it. */
export function formatReport(report: DoctorReport): string {
  const out: string[] = []
  for (const line of report.lines) {
    out.push(`${SYMBOL[line.status]} ${line.title}: ${line.detail}`)
    if (line.fix && line.status !== 'pass') out.push(`    fix: ${line.fix.split('\n').join('\n         ')}`)
  }
  const failed = report.lines.filter((line) => line.status === 'fail').length
  out.push(failed === 0 ? 'Everything Glassbox needs is in place.' : `${failed} problem${failed === 1 ? '' : 's'} to fix.`)
  return out.join('\n') + '\n'
}
