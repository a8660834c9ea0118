import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { jsonLine, type CliIo, type CommandOptions } from './io'
import { createGlassbox } from '../app/create-glassbox'
import { resolveDataDir } from '../data-dir'
import { openStore, STORE_FILE } from '../store'
import { doctorContext, storeWriteProblem } from '../doctor/context'
import { DOCTOR_CHECKS, formatReport, runDoctor } from '../doctor'
import { errorMessage } from '../../shared/error-message'
import { cliTrust, requireProject, withGlassbox } from './options'

// `glassbox doctor --project DIR [--endpoint URL]... [--model NAME] [--data-dir DIR] [--trust-project] [--json]`:
// one run over everything a question needs, each line ✓/✗ (or ! for worth knowing) with the fix; exit 1 on
// any ✗. What the project asks beyond its folder is approved as by the other commands, and nothing
// unapproved is connected to or started.

/** The options it takes (COMMAND_USAGE in ../cli.ts lists the same). */
export const OPTIONS = {
  project: { type: 'string' },
  endpoint: { type: 'string', multiple: true },
  model: { type: 'string' },
  'data-dir': { type: 'string' },
  'trust-project': { type: 'boolean', default: false },
  json: { type: 'boolean' }
} satisfies CommandOptions

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: OPTIONS,
    strict: true
  })
  const root = requireProject(values.project)
  const dataDir = resolveDataDir(values['data-dir'])
  const storeFile = join(dataDir, STORE_FILE)
  const storeProblem = openProblem(dataDir)
  // The other checks still run when the store cannot be written: on a throwaway one, said in the store line.
  const scratch = storeProblem === null ? null : mkdtempSync(join(tmpdir(), 'glassbox-doctor-'))
  try {
    const report = await withGlassbox(
      createGlassbox({
        dataDir: scratch ?? dataDir,
        projectPath: root,
        watch: false,
        extractMemories: false,
        endpoint: values.endpoint?.[0],
        model: values.model,
        trust: cliTrust(values['trust-project'], io)
      }),
      (glassbox) => runDoctor(doctorContext(glassbox, { endpoints: values.endpoint ?? [], model: values.model ?? null, storeFile, storeProblem, askTrust: true }), DOCTOR_CHECKS)
    )
    io.stdout(values.json ? jsonLine(report) : formatReport(report))
    return report.ok ? 0 : 1
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  }
}

function openProblem(dataDir: string): string | null {
  try {
    const store = openStore(dataDir)
    try {
      return storeWriteProblem(store)
    } finally {
      store.close()
    }
  } catch (error) {
    return errorMessage(error).split('\n')[0]
  }
}
