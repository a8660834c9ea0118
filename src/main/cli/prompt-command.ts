import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createGlassbox } from '../app/create-glassbox'
import { MessageInputError } from '../app/message-inputs'
import { AttachmentError } from '../prompt/user/attachments'
import { jsonLine, type CliIo, type CommandOptions } from './io'
import type { PromptPreview } from '../../shared/prompt'
import { plural } from '../../shared/format-count'
import { estimateNote, sectionTokens } from '../../shared/section-tokens'
import { CliError } from './cli-error'
import { requireProject, withGlassbox } from './options'

// `glassbox prompt`: exactly what would be sent for a question, without sending it.

/** The options it takes (COMMAND_USAGE in ../cli.ts lists the same). */
export const OPTIONS = {
  project: { type: 'string' },
  question: { type: 'string', default: '' },
  channel: { type: 'string' },
  'test-mode': { type: 'boolean', default: false },
  attach: { type: 'string', multiple: true, default: [] as string[] },
  'fork-selection': { type: 'string' },
  timezone: { type: 'string' },
  now: { type: 'string' },
  endpoint: { type: 'string' },
  model: { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean', default: false }
} satisfies CommandOptions

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: OPTIONS,
    strict: true,
    allowPositionals: false
  })
  const project = requireProject(values.project)
  const now = values.now === undefined ? undefined : parseNow(values.now)
  return withGlassbox(createGlassbox({ dataDir: values['data-dir'], projectPath: project, endpoint: values.endpoint, model: values.model, watch: false, readForPromptOnly: true }), async (glassbox) => {
    // An approved MCP server's tools are part of what would be sent; an unapproved one is never started.
    await glassbox.session().mcpLoaded
    const preview = await glassbox.preview({
      question: values.question,
      attachments: values.attach.map((file) => resolve(file)),
      testMode: values['test-mode'],
      channel: values.channel ?? null,
      timezone: values.timezone,
      now,
      forkSelection: values['fork-selection'],
      // The budget is checked against the window the server reports, as a run would be.
      resolveModel: values.endpoint !== undefined || values.model !== undefined
    }).catch((error: unknown) => {
      // A refused attachment is the user's input, not a failure of the program: one line, exit 1.
      if (error instanceof MessageInputError || error instanceof AttachmentError) throw new CliError(error.message)
      throw error
    })
    io.stdout(values.json ? jsonLine(preview) : describe(preview))
    return 0
  })
}

function parseNow(text: string): Date {
  const date = new Date(text)
  if (Number.isNaN(date.getTime())) throw new CliError(`--now "${text}" is not an ISO-8601 date, e.g. 2026-01-31T09:00:00Z`)
  return date
}

/** The prompt for a person: the text as sent, then where each part came from and what it costs. */
function describe(preview: PromptPreview): string {
  const lines = [`=== System prompt (${preview.overrideMode}) ===`, preview.system, '']
  if (preview.user) lines.push('=== User prompt ===', preview.user, '')
  // As the app's inspector tells them: at the server's scale, nested sections indented, and the top-level
  // rows with what lies between them adding up to the system prompt's count in the budget below.
  const tokens = sectionTokens(preview)
  lines.push(`=== Sections: ${tokens.total} tokens (${estimateNote(preview.budget?.tokenScale)}) ===`)
  const row = (name: string, count: number, note: string) => `${name.padEnd(28)} ${String(count).padStart(6)} ${count === 1 ? 'token ' : 'tokens'}  ${note}`.trimEnd()
  for (const section of preview.sections) {
    lines.push(row(tokens.outer.has(section.id) ? section.id : `  ${section.id}`, tokens.shown(section), section.sources.join(', ')))
  }
  if (preview.sections.length > 0 && tokens.between !== 0) lines.push(row('(between sections)', tokens.between, 'headings and blank lines between them, tokens spanning two'))
  if (preview.budget) {
    const { budget } = preview
    lines.push('', `=== Budget: ${budget.used} of ${budget.contextWindow} tokens (context window: ${budget.contextSource ?? 'unknown source'}) ===`)
    for (const part of budget.parts) lines.push(`${part.name.padEnd(10)} ${String(part.tokens).padStart(6)}`)
    for (const trim of budget.trimmed) lines.push(`trimmed ${trim.part}: ${trim.detail} (${trim.tokensSaved} tokens)`)
  }
  if (preview.memory.dropped.length > 0) lines.push('', `${plural(preview.memory.dropped.length, 'memory', 'memories')} left out to fit the memory budget`)
  if (preview.diagnostics.length > 0) {
    lines.push('', '=== Diagnostics ===')
    for (const diagnostic of preview.diagnostics) lines.push(`${diagnostic.file}: ${diagnostic.problem}`)
  }
  return lines.join('\n') + '\n'
}
