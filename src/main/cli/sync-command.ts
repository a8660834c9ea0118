import { parseArgs } from 'node:util'
import type { CliIo } from '../cli'
import { escapeControlCharacters } from '../data/control-characters'
import { syncProject } from '../data/sync'
import { requireProject } from './options'

// `glassbox sync --project DIR`: regenerates databases/ from the database files in nao_config.yaml.
// Progress goes to stderr (one line per table), the summary to stdout; any database error → exit 1. Names
// come from databases and the project: their control characters are printed as escapes, never raw.

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { project: { type: 'string' } }, strict: true })
  const root = requireProject(values.project)
  const result = await syncProject(root, {
    onProgress: (progress) => io.stderr(`[${progress.done}/${progress.total}] ${escapeControlCharacters(progress.table)}\n`)
  })
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
