import { parseArgs } from 'node:util'
import type { CliIo, CommandOptions } from './io'
import { escapeControlCharacters } from '../data/control-characters'
import { syncProject } from '../data/sync'
import { cliTrust, requireProject } from './options'
import { openStore } from '../store'
import { resolveDataDir } from '../data-dir'
import { TrustGate, withTrustGate } from '../trust'
import { realpathSync } from 'node:fs'
import { CliError } from './cli-error'
import { errorMessage } from '../../shared/error-message'

// `glassbox sync --project DIR [--trust-project] [--data-dir DIR]`: regenerates databases/ from the
// databases in nao_config.yaml. A server the project names is connected only once approved (stored in the
// data folder's store, like the app's approvals). Progress goes to stderr (one line per table), the summary
// to stdout; any database error → exit 1. Names come from databases and the project: their control
// characters are printed as escapes, never raw.

/** The options it takes (COMMAND_USAGE in ../cli.ts lists the same). */
export const OPTIONS = { project: { type: 'string' }, 'trust-project': { type: 'boolean', default: false }, 'data-dir': { type: 'string' } } satisfies CommandOptions

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: OPTIONS,
    strict: true
  })
  const root = realpathSync(requireProject(values.project))
  let store: ReturnType<typeof openStore>
  try {
    store = openStore(resolveDataDir(values['data-dir']))
  } catch (error) {
    throw new CliError(`the store cannot be opened: ${errorMessage(error)}`)
  }
  const trust = new TrustGate(root, store.trust, cliTrust(values['trust-project'], io))
  const result = await withTrustGate(trust, () =>
    syncProject(root, {
      onProgress: (progress) => io.stderr(`[${progress.done}/${progress.total}] ${escapeControlCharacters(progress.table)}\n`)
    })
  ).finally(() => store.close())
  const lines: string[] = []
  for (const database of result.databases) {
    if (database.skipped) lines.push(`${database.name}: skipped, ${database.skipped}`)
    else if (database.folder) {
      const removed = database.removed.length > 0 ? `, ${database.removed.length} removed` : ''
      lines.push(`${database.name}: ${database.tables} tables in ${database.folder} (${database.written} updated${removed})`)
    }
    for (const warning of database.warnings) lines.push(`${database.name}: warning: ${warning}`)
  }
  if (result.changed.length > 0) lines.push(`changed ${result.changed.length} file${result.changed.length === 1 ? '' : 's'}:`, ...indented(result.changed))
  if (result.changedBySomeoneElse.length > 0) {
    lines.push('left untouched (changed by someone else, not written by sync):', ...indented(result.changedBySomeoneElse))
    lines.push('  (delete a file to let sync write it again)')
  }
  if (result.databases.length === 0 && result.errors.length === 0) lines.push('No databases declared in nao_config.yaml: nothing to sync.')
  lines.push(`Synced ${result.tables} table${result.tables === 1 ? '' : 's'}${result.errors.length > 0 ? `, ${result.errors.length} error(s)` : ''}.`)
  io.stdout(lines.map(escapeControlCharacters).join('\n') + '\n')
  for (const error of result.errors) io.stderr(`error: ${escapeControlCharacters(error)}\n`)
  return result.errors.length > 0 ? 1 : 0
}

/** Paths listed before "… N more": a big project's first sync changes thousands of files. */
const MAX_LISTED = 20

/** One path per line; JSON-quoted when it holds a control character (a newline in a table name must not forge a line). */
function indented(paths: readonly string[]): string[] {
  const shown = paths.slice(0, MAX_LISTED).map((path) => `  ${/[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path}`)
  return paths.length > MAX_LISTED ? [...shown, `  … ${paths.length - MAX_LISTED} more`] : shown
}
