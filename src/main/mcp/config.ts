import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import * as z from '../../shared/zod-mini'
import { once } from '../../shared/once'
import { CONFIG_FILE, configDocument } from '../project/config'
import { readRegularFileSync } from '../project/regular-file'
import { resolveInside } from '../project/safe-path'
import { errorMessage } from '../../shared/error-message'
import type { ProcessTrustRequest, RemoteToolsTrustRequest } from '../../shared/trust'

// The project's MCP servers, as nao declares them: `mcp: json_file_path: ./agent/mcps/mcp.json` in
// nao_config.yaml, and in that file `{"mcpServers": {"name": {"command", "args", "env"}}}` (or `url` for a
// streamable HTTP server, loopback only). `${VAR}` in args, env values, the URL and headers is the user's
// environment variable: read only when the server starts, after the user approved it.

/** A config file is a few KB; a bigger one is refused rather than read into memory. */
const MAX_MCP_JSON_BYTES = 1024 * 1024
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g
/** Tool names become `<server>__<tool>`, which the OpenAI API limits to 64 of these characters. */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,30}$/

export interface StdioServerSpec {
  transport: 'stdio'
  name: string
  command: string
  args: string[]
  env: Record<string, string>
  trust: ProcessTrustRequest
}

export interface HttpServerSpec {
  transport: 'http'
  name: string
  url: string
  headers: Record<string, string>
  trust: RemoteToolsTrustRequest
}

export type McpServerSpec = StdioServerSpec | HttpServerSpec

export interface McpConfig {
  /** Project-relative; null when nao_config.yaml names none. */
  file: string | null
  servers: McpServerSpec[]
  problems: string[]
}

// Made when a project first names an mcp.json: most name none.
const schemas = once(() => {
  const textMap = z.record(z.string(), z.pipe(z.union([z.string(), z.number(), z.boolean()]), z.transform(String)))
  return {
    serverEntry: z.union([
      z.object({
        command: z.string().check(z.minLength(1)),
        args: z.optional(z.array(z.pipe(z.union([z.string(), z.number()]), z.transform(String)))),
        env: z.optional(textMap)
      }),
      z.object({ url: z.string().check(z.minLength(1)), headers: z.optional(textMap) })
    ]),
    mcpFile: z.object({ mcpServers: z.record(z.string(), z.unknown()) })
  }
})

/** Where nao_config.yaml says mcp.json is, or null (and a problem when that says something unusable). */
export function mcpJsonPath(root: string, problems: string[]): string | null {
  if (!existsSync(resolveSafe(root, CONFIG_FILE) ?? '')) return null
  let document: unknown
  try {
    document = configDocument(readRegularFileSync(resolveInside(root, CONFIG_FILE), MAX_MCP_JSON_BYTES).toString('utf8'))
  } catch {
    return null // nao_config.yaml's own diagnostics say what is wrong with it.
  }
  const mcp = isRecord(document) ? document.mcp : undefined
  if (mcp === undefined || mcp === null) return null
  const path = isRecord(mcp) ? mcp.json_file_path : undefined
  if (typeof path !== 'string' || path.trim() === '') {
    problems.push(`${CONFIG_FILE}: \`mcp:\` needs \`json_file_path:\` naming the project's mcp.json`)
    return null
  }
  return path.trim()
}

export function readMcpConfig(root: string): McpConfig {
  const problems: string[] = []
  const declared = mcpJsonPath(root, problems)
  if (declared === null) return { file: null, servers: [], problems }
  let text: string
  let file = declared
  try {
    const absolute = resolveInside(root, declared)
    file = relative(root, absolute)
    text = readRegularFileSync(absolute, MAX_MCP_JSON_BYTES + 1).toString('utf8')
    if (text.length > MAX_MCP_JSON_BYTES) throw new Error(`larger than ${MAX_MCP_JSON_BYTES} bytes`)
  } catch (error) {
    return { file, servers: [], problems: [`${declared} cannot be read: ${firstLine(error)}`] }
  }
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch (error) {
    return { file, servers: [], problems: [`${file} is not valid JSON: ${firstLine(error)}`] }
  }
  const parsed = schemas().mcpFile.safeParse(document)
  if (!parsed.success) return { file, servers: [], problems: [`${file}: expected {"mcpServers": {"name": {"command": …, "args": […], "env": {…}}}}`] }
  const servers: McpServerSpec[] = []
  for (const [name, raw] of Object.entries(parsed.data.mcpServers)) {
    if (!SERVER_NAME.test(name)) {
      problems.push(`${file}: server "${name.slice(0, 40)}" skipped: a name is 1 to 30 letters, digits, _ or - (it prefixes its tools' names)`)
      continue
    }
    const entry = schemas().serverEntry.safeParse(raw)
    if (!entry.success) {
      problems.push(`${file}: server "${name}" skipped: it needs "command" (with optional "args" and "env") or "url"`)
      continue
    }
    const spec = entry.data
    if ('command' in spec) {
      const args = spec.args ?? []
      const env = spec.env ?? {}
      const envLines = Object.entries(env)
        .map(([key, value]) => `${key}=${value}`)
        .sort()
      const variables = sortedUnique([spec.command, ...args, ...Object.values(env)].flatMap(variablesIn))
      servers.push({ transport: 'stdio', name, command: spec.command, args, env, trust: { kind: 'process', name, command: spec.command, args, env: envLines, variables } })
      continue
    }
    const headers = spec.headers ?? {}
    if (!isLoopbackUrl(spec.url)) {
      problems.push(`${file}: server "${name}" skipped: a streamable HTTP server must be on this machine (http://127.0.0.1, ::1 or localhost), not ${spec.url.slice(0, 200)}`)
      continue
    }
    const variables = sortedUnique([spec.url, ...Object.values(headers)].flatMap(variablesIn))
    servers.push({ transport: 'http', name, url: spec.url, headers, trust: { kind: 'remote-tools', name, url: spec.url, variables } })
  }
  return { file, servers, problems }
}

export function variablesIn(value: string): string[] {
  return [...value.matchAll(VARIABLE)].map((match) => match[1])
}

/** `${VAR}` replaced by the user's value; a missing one is named (its value never shown). */
export function substituteVariables(value: string, env: NodeJS.ProcessEnv = process.env): string {
  return value.replace(VARIABLE, (_match, name: string) => {
    const found = env[name]
    if (found === undefined) throw new Error(`the environment variable ${name} is not set`)
    return found
  })
}

function isLoopbackUrl(value: string): boolean {
  // The variables are not expanded here: where the server is must be written out.
  if (variablesIn(value).length > 0 && /^[a-z]+:\/\/[^/]*\$\{/i.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname)
  } catch {
    return false
  }
}

function resolveSafe(root: string, path: string): string | null {
  try {
    return resolveInside(root, path)
  } catch {
    return null
  }
}

function sortedUnique(values: string[]): string[] {
  return [...new Set(values)].sort()
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function firstLine(error: unknown): string {
  return errorMessage(error).split('\n')[0]
}
