import { parseArgs } from 'node:util'
import type { CliIo } from '../cli'
import { askQuestion, ModelServerUnavailableError, type AskOptions } from '../agent/ask'
import { InvalidEndpointError } from '../agent/endpoints'
import type { RunEvent } from '../../shared/events'
import { CliError } from './cli-error'

// `glassbox ask --project DIR --question TEXT [--endpoint URL] [--model NAME] [--test-mode] [--data-dir DIR] [--json]`
// Streams the answer to stdout (tool calls and errors to stderr), or prints one JSON object with --json.

export async function run(argv: string[], io: CliIo, overrides: Partial<AskOptions> = {}): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      project: { type: 'string' },
      question: { type: 'string' },
      endpoint: { type: 'string' },
      model: { type: 'string' },
      'test-mode': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false }
    },
    strict: true,
    allowPositionals: false
  })
  if (!values.project) throw new CliError('--project DIR is required')
  if (!values.question || values.question.trim() === '') throw new CliError('--question TEXT is required')

  const controller = new AbortController()
  const onSigint = (): void => controller.abort()
  process.once('SIGINT', onSigint)
  const json = values.json
  try {
    const result = await askQuestion({
      projectDir: values.project,
      question: values.question,
      endpoint: values.endpoint,
      model: values.model,
      testMode: values['test-mode'],
      signal: controller.signal,
      onEvent: json ? undefined : (event) => printEvent(event, io),
      ...overrides
    })
    if (json) {
      io.stdout(
        JSON.stringify({
          answer: result.answer,
          runId: result.runId,
          toolCalls: result.toolCalls.map(({ name, args, ok, output }) => ({ name, args, ok, output })),
          usage: result.usage,
          stopReason: result.stopReason,
          ...(result.error ? { error: result.error } : {}),
          model: result.model,
          endpoint: result.endpoint
        }) + '\n'
      )
    } else if (!result.answer.endsWith('\n')) io.stdout('\n')
    if (result.stopReason === 'error') {
      io.stderr(`glassbox ask: ${result.error ?? 'the run failed'}\n`)
      return 1
    }
    return result.stopReason === 'cancelled' ? 130 : 0
  } catch (error) {
    if (error instanceof ModelServerUnavailableError || error instanceof InvalidEndpointError) throw new CliError(error.message)
    if (error instanceof Error && /^Cannot open project|ENOENT|not a folder/.test(error.message)) throw new CliError(`cannot open project "${values.project}": ${error.message}`)
    throw error
  } finally {
    process.off('SIGINT', onSigint)
  }
}

function printEvent(event: RunEvent, io: CliIo): void {
  if (event.type === 'text-delta') io.stdout(event.text)
  else if (event.type === 'tool-start') io.stderr(`\n→ ${event.name} ${JSON.stringify(event.args)}\n`)
  else if (event.type === 'tool-end' && !event.ok) io.stderr(`  ✗ ${event.output.split('\n')[0]}\n`)
}
