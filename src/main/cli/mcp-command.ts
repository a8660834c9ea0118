import { parseArgs } from 'node:util'
import { jsonLine, type CliIo, type CommandOptions } from './io'
import { createGlassbox } from '../app/create-glassbox'
import type { McpServerView, McpStatus } from '../../shared/trust'
import { cliTrust, requireProject, withGlassbox } from './options'

// `glassbox mcp --project DIR [--trust-project] [--data-dir DIR] [--json]`: the project's MCP servers, each
// started if approved, with its state: ready (N tools), failed (why, and the end of its stderr), or not
// approved (never started). Exit 1 when a server failed.

/** The options it takes (COMMAND_USAGE in ../cli.ts lists the same). */
export const OPTIONS = {
  project: { type: 'string' },
  'data-dir': { type: 'string' },
  'trust-project': { type: 'boolean', default: false },
  json: { type: 'boolean', default: false }
} satisfies CommandOptions

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: OPTIONS,
    strict: true
  })
  const root = requireProject(values.project)
  const opening = createGlassbox({ dataDir: values['data-dir'], projectPath: root, watch: false, extractMemories: false, trust: cliTrust(values['trust-project'], io) })
  return withGlassbox(opening, async (glassbox) => {
    const session = glassbox.session()
    await session.mcpLoaded
    const status = session.mcpStatus()
    io.stdout(values.json ? jsonLine(status) : statusText(status))
    return status.servers.some((server) => server.state === 'failed') ? 1 : 0
  })
}

export function statusText(status: McpStatus): string {
  if (status.configFile === null && status.problems.length === 0) return 'This project declares no MCP servers (nao_config.yaml has no `mcp: json_file_path:`).\n'
  const lines = [`MCP servers from ${status.configFile ?? 'nao_config.yaml'}:`]
  if (status.servers.length === 0) lines.push('  (none)')
  for (const server of status.servers) lines.push(...serverLines(server))
  for (const problem of status.problems) lines.push(`problem: ${problem}`)
  return lines.join('\n') + '\n'
}

function serverLines(server: McpServerView): string[] {
  const head = `  ${server.name}: ${stateText(server)} — ${server.commandLine}`
  if (server.state === 'ready') return [head, ...server.tools.map((tool) => `      ${tool.name} (${tool.tokens} tokens)`)]
  if (server.state === 'failed') {
    const tail = server.stderrTail ? server.stderrTail.split('\n').slice(-5).map((line) => `      | ${line}`) : []
    return [head, `      ${server.error ?? 'failed'}`, ...tail]
  }
  return [head]
}

function stateText(server: McpServerView): string {
  if (server.state === 'ready') return `ready (${server.tools.length} tool${server.tools.length === 1 ? '' : 's'})`
  if (server.state === 'not-approved') return 'not approved, not started (run with --trust-project, or approve it in Settings → Project trust)'
  return server.state
}
