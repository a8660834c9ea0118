import { existsSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { parse } from 'yaml'
import { z } from 'zod'
import { readRegularFileSync } from '../project/regular-file'
import { resolveInside } from '../project/safe-path'
import type { DatabaseConfig } from '../project/types'
import { errorMessage } from '../../shared/error-message'
import { markEnvReferences, parseServerConnection, SERVER_TYPES } from '../engines/server-config'

// Reads the `databases:` list of nao_config.yaml. nao renders the file with Jinja first (e.g.
// `api_key: {{ env('NOTION_API_KEY') }}`), which is not valid YAML as is; expressions are replaced by a
// plain placeholder, which is enough because sync only needs the database entries.

/** What nao writes when a database entry names no accessors. */
export const DEFAULT_ACCESSORS = ['columns', 'preview', 'description']

/** Same cap as the project model's config read; a config file is a few KB. */
const MAX_CONFIG_BYTES = 1024 * 1024

const stringList = z.array(z.string()).nullish()

const databaseEntry = z.object({
  name: z.string().min(1).nullish(),
  type: z.string().min(1),
  path: z.string().min(1).nullish(),
  accessors: stringList,
  include: stringList,
  exclude: stringList
})

const configFile = z.object({ databases: z.array(z.unknown()).nullish() }).passthrough()

export interface DatabaseConfigs {
  databases: DatabaseConfig[]
  /** One sentence per entry (or file) that could not be read; the good entries are still returned. */
  problems: string[]
}

export function readDatabaseConfigs(root: string): DatabaseConfigs {
  const file = join(root, 'nao_config.yaml')
  if (!existsSync(file)) return { databases: [], problems: [] }
  let document: unknown
  let text: string
  try {
    // Like every project file: through the realpath guard, and only if it is a regular file.
    text = readRegularFileSync(resolveInside(root, 'nao_config.yaml'), MAX_CONFIG_BYTES).toString('utf8')
  } catch (error) {
    return { databases: [], problems: [`nao_config.yaml cannot be read: ${firstLine(error)}`] }
  }
  try {
    document = parse(withoutJinja(markEnvReferences(text)))
  } catch (error) {
    return { databases: [], problems: [`nao_config.yaml is not valid YAML: ${firstLine(error)}`] }
  }
  const parsed = configFile.safeParse(document ?? {})
  if (!parsed.success) return { databases: [], problems: ['nao_config.yaml: expected a mapping at the top level'] }
  const databases: DatabaseConfig[] = []
  const problems: string[] = []
  for (const [index, raw] of (parsed.data.databases ?? []).entries()) {
    const entry = databaseEntry.safeParse(raw)
    if (!entry.success) {
      const issue = entry.error.issues[0]
      problems.push(`nao_config.yaml databases[${index}]: ${issue.path.join('.') || 'entry'}: ${issue.message}`)
      continue
    }
    const { name, type, path, accessors, include, exclude } = entry.data
    const label = name ?? `database-${index + 1}`
    const server = SERVER_TYPES.has(type.toLowerCase())
      ? parseServerConnection(raw, (message) => problems.push(`nao_config.yaml databases[${index}] (${label}): ${message}`))
      : undefined
    databases.push({
      ...(server ? { server } : {}),
      name: label,
      type: server !== undefined ? 'postgres' : type.toLowerCase(),
      path: path ? (isAbsolute(path) ? path : resolve(root, path)) : null,
      accessors: accessors && accessors.length > 0 ? accessors : DEFAULT_ACCESSORS,
      include: include ?? [],
      exclude: exclude ?? []
    })
  }
  return { databases, problems }
}

function withoutJinja(text: string): string {
  return text.replace(/\{\{[\s\S]*?\}\}/g, 'jinja-expression').replace(/\{%[\s\S]*?%\}/g, '').replace(/\{#[\s\S]*?#\}/g, '')
}

export function firstLine(error: unknown): string {
  const message = errorMessage(error)
  return message.split('\n')[0].trim()
}
