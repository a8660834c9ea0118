import { engineOf } from '../agent/sql/database-pool'
import { declaredDataFormat } from '../engines/files/data-files'
import { readRegularFileSync } from '../project/regular-file'
import { toProjectPath } from '../project/safe-path'
import { describeRequest, serverTrustRequest, TrustRequiredError } from '../trust'
import { errorMessage } from '../../shared/error-message'
import { APPROVE_FIX, unsetVariableFix } from './trust-checks'
import { fail, pass, type DoctorCheck } from './types'
import type { CheckLine } from '../../shared/api'

// Each database the agent may query answers a query, and refuses a write: the same pool execute_sql uses.
// A server the user has not approved is never connected to: its line says so, with where to approve it.

const PROBE_TIMEOUT_MS = 10_000
const WRITE_PROBE = 'CREATE TABLE glassbox_doctor_probe (x INTEGER)'

export const databasesReachable: DoctorCheck = async ({ snapshot, databases, trust, trusted }) => {
  const title = 'Database'
  const lines: CheckLine[] = []
  const pool = databases()
  const listed = pool.list()
  // A declared file the pool could not take (unreadable, not a database) is not in its list at all.
  for (const config of snapshot.databases) {
    if (config.server || !config.path || declaredDataFormat(config)) continue
    if (listed.some((database) => database.id === config.name)) continue
    const file = toProjectPath(snapshot.root, config.path)
    lines.push(fail('database', title, `${config.name} (${file}): ${whyUnreadable(config.path)}`, `Point path: in nao_config.yaml at a readable DuckDB or SQLite file, or fix the file's permissions.`))
  }
  if (listed.length === 0 && lines.length === 0) {
    return [fail('database', title, 'nothing to query: nao_config.yaml declares no database and the folder holds no data file', 'Run `glassbox init` in the folder, or add databases: to nao_config.yaml.')]
  }
  for (const database of listed) {
    const label = `${database.id} (${database.engine}${database.file && database.file !== '.' ? `, ${database.file}` : ''})`
    const request = database.server ? serverTrustRequest(database.server, database.engine, database.id) : null
    const notApproved = (): void =>
      void lines.push(fail('database', title, `${label} is not approved, so Glassbox did not connect: this project asks to ${request ? describeRequest(request) : 'connect to it'}`, APPROVE_FIX))
    if (request && !(await trust.settle(request))) {
      notApproved()
      continue
    }
    const run = (sql: string) => trusted(() => pool.run(database, { sql, keepRows: 1, timeoutMs: PROBE_TIMEOUT_MS, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }))
    try {
      await run('SELECT 1')
    } catch (error) {
      if (error instanceof TrustRequiredError) {
        notApproved()
        continue
      }
      const fix = unsetVariableFix(firstLine(error))
      lines.push(fail('database', title, `${label} cannot be queried: ${firstLine(error)}`, fix ? fix : database.server ? 'Check host, port, user and password in nao_config.yaml, and that the server is running.' : 'Check the file exists, is readable and is not held open for writing by another program.'))
      continue
    }
    try {
      await run(WRITE_PROBE)
      lines.push(fail('database', title, `${label} accepted a write (CREATE TABLE)`, 'Give Glassbox a role that can only read (GRANT SELECT), and report this: every engine should refuse writes.'))
    } catch (error) {
      lines.push(pass('database', title, `${label} answers and is read-only (a CREATE TABLE was refused: ${firstSentence(error)})`))
    }
  }
  return lines
}

function whyUnreadable(path: string): string {
  try {
    readRegularFileSync(path, 16)
  } catch (error) {
    return `cannot be read (${firstLine(error)})`
  }
  return engineOf(path) ? 'cannot be opened' : 'is neither a DuckDB nor a SQLite database file'
}

function firstSentence(error: unknown): string {
  const line = firstLine(error)
  return /^(.*?[.!])(?:\s|$)/.exec(line)?.[1] ?? line
}

function firstLine(error: unknown): string {
  const line = errorMessage(error).split('\n')[0].trim()
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}
