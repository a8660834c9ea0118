import { parseArgs } from 'node:util'
import { jsonLine, type CliIo, type CommandOptions } from './io'
import { detectServers, listModels, type DetectedServer } from '../agent/discovery'
import { InvalidEndpointError, kindOf, normalizeBaseUrl, SERVER_PRESETS, START_SERVER_GUIDANCE, type ServerPreset } from '../agent/endpoints'
import { CliError } from './cli-error'
import { errorMessage } from '../../shared/error-message'
import { formatCount } from '../../shared/format-count'

// `glassbox models [--endpoint URL] [--json]`: the running local servers, their models and context windows.

/** The options it takes (COMMAND_USAGE in ../cli.ts lists the same). */
export const OPTIONS = { endpoint: { type: 'string' }, json: { type: 'boolean', default: false } } satisfies CommandOptions

export async function run(argv: string[], io: CliIo, presets: readonly ServerPreset[] = SERVER_PRESETS): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: OPTIONS,
    strict: true,
    allowPositionals: false
  })
  let servers: DetectedServer[]
  if (values.endpoint) {
    let baseUrl: string
    try {
      baseUrl = normalizeBaseUrl(values.endpoint)
    } catch (error) {
      throw new CliError(error instanceof InvalidEndpointError ? error.message : String(error))
    }
    try {
      const models = await listModels(baseUrl, { timeoutMs: 3_000 })
      const kind = kindOf(baseUrl)
      // Named as detection names it; the line already shows the URL, so a server on another port is just a model server.
      servers = [{ kind, label: presets.find((preset) => preset.kind === kind)?.label ?? 'Model server', baseUrl, models }]
    } catch (error) {
      throw new CliError(`no model server answered at ${baseUrl} (${errorMessage(error)}).\n${START_SERVER_GUIDANCE}`)
    }
  } else {
    servers = await detectServers({ presets, timeoutMs: 800 })
  }

  if (values.json) io.stdout(jsonLine({ servers }))
  if (servers.length === 0) {
    io.stderr(`glassbox models: ${START_SERVER_GUIDANCE}\n`)
    return 1
  }
  if (!values.json) io.stdout(servers.map(describeServer).join('\n\n') + '\n')
  return 0
}

function describeServer(server: DetectedServer): string {
  const lines = [`${server.label} — ${server.baseUrl}`]
  if (server.models.length === 0) lines.push('  (no model loaded)')
  for (const model of server.models) {
    const window = model.contextWindow ? `${formatCount(model.contextWindow)} tokens (${model.contextSource})` : 'context window unknown'
    const flags = [model.tools === false ? 'no tools' : model.tools ? 'tools' : null, model.vision ? 'vision' : null].filter(Boolean)
    lines.push(`  ${model.id}  ${window}${flags.length > 0 ? `  [${flags.join(', ')}]` : ''}`)
  }
  return lines.join('\n')
}
