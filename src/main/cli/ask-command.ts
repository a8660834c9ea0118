import { parseArgs } from 'node:util'
import { jsonLine, type CliIo, type CommandOptions } from './io'
import { createGlassbox, type GlassboxOptions } from '../app/create-glassbox'
import type { RunEvent } from '../../shared/events'
import { CliError } from './cli-error'
import { cliTrust, requireProject, withGlassbox } from './options'
import { escapeControlCharacters } from '../data/control-characters'
import { formatCount } from '../../shared/format-count'

// `glassbox ask --project DIR --question TEXT [--endpoint URL] [--model NAME] [--test-mode] [--data-dir DIR] [--json]`
// One question through the same services as the app (prompt assembly, budget, memory, stored run).
// Streams the answer to stdout (tool calls and errors to stderr), or prints one JSON object with --json.

/** The options it takes (COMMAND_USAGE in ../cli.ts lists the same). */
export const OPTIONS = {
  project: { type: 'string' },
  question: { type: 'string' },
  endpoint: { type: 'string' },
  model: { type: 'string' },
  'test-mode': { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
  'trust-project': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false }
} satisfies CommandOptions

export async function run(argv: string[], io: CliIo, overrides: Partial<GlassboxOptions> = {}): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: OPTIONS,
    strict: true,
    allowPositionals: false
  })
  const project = requireProject(values.project)
  const question = values.question ?? ''
  if (question.trim() === '') throw new CliError('--question TEXT is required')
  const json = values.json

  const opening = createGlassbox({
    dataDir: values['data-dir'],
    projectPath: project,
    endpoint: values.endpoint,
    model: values.model,
    watch: false,
    // A one-shot command spends no extra model call on learning memories; the app does.
    extractMemories: false,
    trust: cliTrust(values['trust-project'], io),
    ...overrides
  })
  return withGlassbox(opening, async (glassbox) => {
    // The tools of the project's approved MCP servers are part of the question's request.
    await glassbox.session().mcpLoaded
    if (!json) glassbox.subscribe((event) => event.channel === 'run' && printEvent(event.event, io))
    const chat = await glassbox.createChat({ title: question.slice(0, 80) })
    const { runId, done } = await glassbox.send({ chatId: chat.id, text: question, testMode: values['test-mode'] })
    const onSigint = (): void => void glassbox.stopRun({ runId })
    process.once('SIGINT', onSigint)
    const outcome = await done.finally(() => process.off('SIGINT', onSigint))
    const record = glassbox.store.runs.getRecord(runId)
    const stopReason = outcome?.stopReason ?? 'error'
    // The stored error is the explained one (reason and what to do, see explainRunFailure).
    const error = record.error ?? (outcome ? outcome.error : 'the run failed')
    if (json) {
      io.stdout(
        jsonLine({
          answer: outcome?.answer ?? '',
          runId,
          toolCalls: (outcome?.toolCalls ?? []).map(({ name, args, ok, output }) => ({ name, args, ok, output })),
          // null: the server reported none (never 0/0 as if counted).
          usage: outcome?.usage ?? null,
          stopReason,
          ...(error ? { error } : {}),
          model: record.model,
          endpoint: record.endpoint
        })
      )
    } else if (outcome && !outcome.answer.endsWith('\n')) io.stdout('\n')
    if (stopReason === 'error') {
      io.stderr(`glassbox ask: ${error ?? 'the run failed'}\n`)
      return 1
    }
    // A cut answer is not a failure, but a script should not take it for a complete one.
    if (stopReason === 'length') io.stderr('glassbox ask: the answer was cut at the output limit (stopReason "length").\n')
    return stopReason === 'cancelled' ? 130 : 0
  })
}

function printEvent(event: RunEvent, io: CliIo): void {
  if (event.type === 'text-delta') io.stdout(event.text)
  else if (event.type === 'tool-start') io.stderr(`\n→ ${event.name} ${JSON.stringify(event.args)}\n`)
  else if (event.type === 'tool-end') io.stderr(event.ok ? toolOutputPreview(event.output) : `  ✗ ${escapeControlCharacters(event.output.split('\n')[0])}\n`)
}

const PREVIEW_LINES = 12
const PREVIEW_LINE_CHARS = 200

/**
 * The start of what a tool returned, indented under its call: an answer that says "shown above" refers to it.
 * Its text is the project's data, so control characters are made visible rather than sent to the terminal.
 */
export function toolOutputPreview(output: string): string {
  const lines = output.replace(/\n+$/, '').split('\n')
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => {
    const visible = escapeControlCharacters(line)
    return `  ${visible.length > PREVIEW_LINE_CHARS ? `${visible.slice(0, PREVIEW_LINE_CHARS)}…` : visible}`.trimEnd()
  })
  const more = lines.length - shown.length
  if (more > 0) shown.push(`  … ${formatCount(more)} more ${more === 1 ? 'line' : 'lines'} (--json prints them all)`)
  return shown.join('\n') + '\n'
}
