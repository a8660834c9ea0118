import { createInterface } from 'node:readline/promises'
import { parseArgs } from 'node:util'
import type { CliIo, CommandOptions } from './io'
import { applyInit, InitError, planInit, type InitPlan, type InitReport } from '../init/init-project'
import { CliError } from './cli-error'

// `glassbox init [DIR] [--yes] [--name N] [--database FILE]...`: makes DIR (default: the current folder)
// a project from the data files in it. On a terminal it shows what it found and asks; with --yes, or
// when not on a terminal (a script), it takes the defaults. Existing files are kept, never replaced.

/** Asks one question on the terminal and returns the answer ('' for Enter). */
export type Ask = (question: string) => Promise<string>

/** The options it takes (COMMAND_USAGE in ../cli.ts lists the same). */
export const OPTIONS = { yes: { type: 'boolean', short: 'y' }, name: { type: 'string' }, database: { type: 'string', multiple: true }, 'no-sync': { type: 'boolean' } } satisfies CommandOptions

export async function run(argv: string[], io: CliIo): Promise<number> {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true
  if (!interactive) return runInit(argv, io, null)
  const terminal = createInterface({ input: process.stdin, output: process.stdout })
  try {
    return await runInit(argv, io, (question) => terminal.question(question))
  } finally {
    terminal.close()
  }
}

/** The command with its questions injected (null: none are asked), so tests can answer them. */
export async function runInit(argv: string[], io: CliIo, ask: Ask | null): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true
  })
  if (positionals.length > 1) throw new CliError(`init takes one folder, got ${positionals.length}: ${positionals.join(' ')}`)
  const questions = values.yes ? null : ask
  let plan: InitPlan
  try {
    plan = await planInit({ target: positionals[0] ?? '.', name: values.name, databases: values.database })
    if (questions) plan = await confirmPlan(plan, questions, values.name === undefined, io)
    const report = await applyInit(plan, { sync: !values['no-sync'] })
    io.stdout(describeReport(report))
    return report.sync && report.sync.errors.length > 0 ? 1 : 0
  } catch (error) {
    if (error instanceof InitError) throw new CliError(error.message)
    throw error
  }
}

async function confirmPlan(plan: InitPlan, ask: Ask, askName: boolean, io: CliIo): Promise<InitPlan> {
  io.stdout(`Making a project in ${plan.root}\n`)
  const name = askName ? (await ask(`Project name [${plan.name}]: `)).trim() || plan.name : plan.name
  const databases = []
  for (const file of plan.databases) {
    const answer = (await ask(`Declare ${file.path} (${file.kind}) as "${file.name}"? [Y/n] `)).trim().toLowerCase()
    if (answer === '' || answer.startsWith('y')) databases.push(file)
  }
  const replanned =
    name === plan.name && databases.length === plan.databases.length
      ? plan
      : await planInit({ target: plan.root, name, databases: databases.map((file) => file.path) })
  io.stdout(`Will write (existing files are kept): ${[...replanned.files.map((file) => file.path), ...replanned.folders.map((folder) => `${folder}/`)].join(', ')}\n`)
  const go = (await ask('Go ahead? [Y/n] ')).trim().toLowerCase()
  if (go !== '' && !go.startsWith('y')) throw new CliError('nothing written', 1)
  return replanned
}

function describeReport(report: InitReport): string {
  const lines = [`Project "${report.name}" in ${report.root}`]
  if (report.databases.length === 0) lines.push('No DuckDB, SQLite, CSV, Parquet or JSON file found: add databases to nao_config.yaml later.')
  for (const database of report.databases) lines.push(`  database ${database.name}: ${database.path} (${database.kind})`)
  for (const path of report.written) lines.push(`wrote ${path}`)
  for (const path of report.kept) lines.push(`kept ${path} (it exists; not overwritten)`)
  if (report.exampleSkipped) lines.push(`no example test case: ${report.exampleSkipped}`)
  if (report.sync) {
    lines.push(`synced ${report.sync.tables} table${report.sync.tables === 1 ? '' : 's'} into databases/`)
    for (const error of report.sync.errors) lines.push(`sync error: ${error}`)
  }
  lines.push(`Next: glassbox test --project ${JSON.stringify(report.root)} --endpoint URL --model NAME`)
  return lines.join('\n') + '\n'
}
