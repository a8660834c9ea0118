import type { McpServerView } from '../../shared/trust'
import { APPROVE_FIX, unsetVariableFix } from './trust-checks'
import { fail, pass, warn, type DoctorCheck } from './types'
import type { CheckLine } from '../../shared/api'

// Each MCP server the project declares, in the state the project's hub left it: ready (its tools), failed
// (why, the end of its stderr and the fix), or not approved (never started: the doctor starts nothing).

const STDERR_LINES = 5
const STDERR_CHARS = 400

export const mcpServersReady: DoctorCheck = async ({ mcp, mcpConfigProblems }) => {
  const title = 'MCP server'
  const status = await mcp()
  if (status.configFile === null && status.problems.length === 0) return []
  const file = status.configFile ?? 'nao_config.yaml'
  const lines: CheckLine[] = status.servers.map((server) => serverLine(server, file))
  const configProblems = new Set(mcpConfigProblems())
  for (const problem of status.problems) {
    // A problem of the file leaves a server out; a note on one tool (left out, too big) leaves the rest working.
    lines.push(configProblems.has(problem) ? fail('mcp-server', title, `${file}: ${problem}`, `Fix ${file}.`) : warn('mcp-server', title, problem))
  }
  if (lines.length === 0) lines.push(pass('mcp-server', title, `${file} declares no server`))
  return lines
}

function serverLine(server: McpServerView, file: string): CheckLine {
  const title = 'MCP server'
  const id = 'mcp-server'
  const command = `\`${server.commandLine}\``
  switch (server.state) {
    case 'ready': {
      const names = server.tools.map((tool) => tool.name)
      const listed = names.length > 8 ? `${names.slice(0, 8).join(', ')}, …` : names.join(', ')
      return pass(id, title, `${server.name}: ready with ${names.length} tool${names.length === 1 ? '' : 's'}${names.length > 0 ? ` (${listed})` : ''}, ${command}`)
    }
    case 'not-approved':
      return fail(id, title, `${server.name}: not approved, so not started: ${command}`, APPROVE_FIX)
    case 'failed':
      return fail(id, title, `${server.name}: failed: ${server.error ?? 'it stopped'}${stderrTail(server.stderrTail)}`, failureFix(server, file))
    case 'starting':
      return warn(id, title, `${server.name}: still starting (it has not answered the MCP handshake yet): ${command}`, 'Check again in a moment; a server that never answers is marked failed.')
    case 'stopped':
      return warn(id, title, `${server.name}: stopped: ${command}`, 'Restart it in Settings → MCP servers, or run `glassbox mcp`.')
  }
}

function stderrTail(tail: string | null): string {
  if (!tail) return ''
  const last = tail.split('\n').map((line) => line.trim()).filter(Boolean).slice(-STDERR_LINES).join(' | ')
  return `; its stderr ends: ${last.length > STDERR_CHARS ? `…${last.slice(-STDERR_CHARS)}` : last}`
}

function failureFix(server: McpServerView, file: string): string {
  const error = server.error ?? ''
  const unset = unsetVariableFix(error)
  if (unset) return unset
  if (/could not download/.test(error)) return `Glassbox runs offline: install the package on this machine and point "command" in ${file} at the installed program instead of a downloader.`
  if (/was not found/.test(error)) return `Install that program, or point "command" in ${file} at its full path.`
  if (/could not reach/.test(error)) return `Start the MCP server at that address (on this machine), or fix "url" in ${file}.`
  return `Fix the server's command, args or env in ${file}${server.stderrTail ? ' (its stderr is above)' : ''}, then restart it in Settings → MCP servers or run \`glassbox mcp\`.`
}
