#!/usr/bin/env node
import { CliError } from './cli/cli-error'
import type { CliIo } from './cli/io'
import { errorMessage } from '../shared/error-message'
import { keepBuildFilesBeside } from './build-cache'

// `glassbox <command> [options]`: the same services as the app, for people, scripts and the checks.
// Each command lives in its own file under cli/ and exports `run(argv, io)`.

export type { CliIo }

type Command = (argv: string[], io: CliIo) => Promise<number>

keepBuildFilesBeside(import.meta.dirname)

const commands: Record<string, () => Promise<{ run: Command }>> = {
  prompt: () => import('./cli/prompt-command'),
  ask: () => import('./cli/ask-command'),
  memory: () => import('./cli/memory-command'),
  test: () => import('./cli/test-command'),
  sync: () => import('./cli/sync-command'),
  models: () => import('./cli/models-command'),
  init: () => import('./cli/init-command'),
  doctor: () => import('./cli/doctor-command'),
  mcp: () => import('./cli/mcp-command')
}

/** Each command's arguments, a line per row, as the help prints them (the README's command block is the same text). */
export const COMMAND_USAGE: Readonly<Record<string, readonly string[]>> = {
  prompt: [
    '--project DIR [--question TEXT] [--channel NAME] [--test-mode] [--attach FILE]...',
    '[--fork-selection TEXT] [--timezone TZ] [--now ISO-8601] [--endpoint URL] [--model NAME]',
    '[--data-dir DIR] [--json]'
  ],
  ask: ['--project DIR --question TEXT [--endpoint URL] [--model NAME] [--test-mode] [--data-dir DIR]', '[--trust-project] [--json]'],
  memory: ['list | add --category C TEXT | edit ID TEXT | disable ID | enable ID | delete ID | on | off', '--project DIR [--data-dir DIR] [--json]'],
  test: [
    '--project DIR [--endpoint URL]... [--model NAME | --model URL#NAME]... [--timeout S] [--data-dir DIR]',
    '[--trust-project] [--json]',
    '| --history | --show ID | --compare BEFORE AFTER'
  ],
  sync: ['--project DIR [--trust-project] [--data-dir DIR]'],
  models: ['[--endpoint URL] [--json]'],
  init: ['[DIR] [--yes] [--name N] [--database FILE]... [--no-sync]'],
  doctor: ['--project DIR [--endpoint URL]... [--model NAME] [--trust-project] [--data-dir DIR] [--json]'],
  mcp: ['--project DIR [--trust-project] [--data-dir DIR] [--json]']
}

const TRUST_NOTE = `--trust-project approves what the project asks beyond its folder: connecting to the servers it names
with your environment variables, starting its MCP servers; on a terminal you are asked instead.`

/** Every command's arguments, the name in a column of its own. */
export function commandTable(): string {
  return Object.entries(COMMAND_USAGE)
    .map(([name, lines]) => lines.map((line, index) => (index === 0 ? name.padEnd(8) : ' '.repeat(8)) + line).join('\n'))
    .join('\n')
}

const USAGE = `Usage: glassbox <command> [options]\n\n${commandTable()}\n\n${TRUST_NOTE}`

/** One command's usage, its rows under the first. */
function commandUsage(name: string): string {
  const head = `Usage: glassbox ${name} `
  return COMMAND_USAGE[name].map((line, index) => (index === 0 ? head : ' '.repeat(head.length)) + line).join('\n') + (COMMAND_USAGE[name].some((line) => line.includes('--trust-project')) ? `\n\n${TRUST_NOTE}` : '')
}

/** Whether the arguments ask for help: --help or -h anywhere before a `--` that ends the options. */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h')
}

/** Loads a command's code without running it (main does, and the start-up bench times it); null for an unknown name. */
export async function loadCommand(name: string): Promise<{ run: Command } | null> {
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined
  return load ? load() : null
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(USAGE + '\n')
    return name ? 0 : 1
  }
  if (Object.hasOwn(commands, name) && asksForHelp(rest)) {
    io.stdout(commandUsage(name) + '\n')
    return 0
  }
  const command = await loadCommand(name)
  if (!command) {
    io.stderr(`glassbox: unknown command '${name}'. Run 'glassbox --help' for the list.\n`)
    return 1
  }
  try {
    return await command.run(rest, io)
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`glassbox ${name}: ${error.message}\n`)
      return error.exitCode
    }
    // parseArgs reports unknown or malformed options with a code; those are the user's input too.
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`glassbox ${name}: ${error.message}\n`)
      return 1
    }
    throw error
  }
}

/**
 * Runs the command line as this process: the process's streams and exit code. A reader that goes away before
 * the output is written (`glassbox prompt | head`) ends the process quietly, as it ends any Unix tool.
 */
export async function runAsProcess(argv: string[]): Promise<void> {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw error
  })
  try {
    process.exitCode = await main(argv, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text)
    })
  } catch (error) {
    process.stderr.write(`glassbox: unexpected failure: ${errorMessage(error)}\n`)
    process.exitCode = 2
  }
}

if (process.argv[1] && /cli\.(ts|js|mjs|cjs)$/.test(process.argv[1])) void runAsProcess(process.argv.slice(2))
