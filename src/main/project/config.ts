import { readYaml } from './yaml'
import * as z from '../../shared/zod-mini'
import type { Diagnostic } from '../../shared/prompt'
import { resolve } from 'node:path'
import { isInside, PathOutsideProjectError, ProjectPathMissingError, resolveInside } from './safe-path'
import type { DatabaseConfig } from './types'
import { errorMessage } from '../../shared/error-message'
import { isGlobPath } from '../engines/files/data-files'
import { serverEngineForType } from '../engines/registry'
import { markEnvReferences } from '../engines/server-config'

// nao_config.yaml, the one parser of it (the project model and sync both read it here). nao renders it as a
// Jinja template before parsing (`api_key: {{ env('KEY') }}`), which is not valid YAML as written; we never
// evaluate templates, we blank them out and read what we need. The only values evaluated are a server
// engine's `{{ env('…') }}` connection parameters, by that engine.

export const CONFIG_FILE = 'nao_config.yaml'

/** What nao syncs when a database entry names no accessors. */
export const DEFAULT_ACCESSORS: readonly string[] = ['columns', 'preview', 'description']

/** Stands in for a `{{ … }}` expression: a plain scalar, valid both bare and inside quotes. */
const TEMPLATE_PLACEHOLDER = '__template__'

/** A `databases:` entry as written: its path is not resolved yet (the file may appear later). */
export interface ConfiguredDatabase extends Omit<DatabaseConfig, 'path'> {
  /** Position in the `databases:` list, for diagnostics. */
  index: number
  path: string | null
}

export interface ProjectConfig {
  projectName: string | null
  databases: ConfiguredDatabase[]
  diagnostics: Diagnostic[]
}

const stringList = z.pipe(
  z.catch(z.array(z.unknown()), []),
  z.transform((items: unknown[]) => items.filter((item) => typeof item === 'string' || typeof item === 'number').map(String))
)

const scalar = z.pipe(z.union([z.string().check(z.minLength(1)), z.number()]), z.transform(String))

const databaseEntry = z.object({
  name: scalar,
  type: scalar,
  path: z.catch(z.nullish(z.string()), null),
  accessors: z.optional(stringList),
  include: z.optional(stringList),
  exclude: z.optional(stringList)
})

/** Replaces Jinja expressions, statements and comments so the rest parses as YAML. */
export function blankTemplates(text: string): string {
  return text
    .replace(/\{\{[\s\S]*?\}\}/g, TEMPLATE_PLACEHOLDER)
    .replace(/\{%[\s\S]*?%\}/g, '')
    .replace(/\{#[\s\S]*?#\}/g, '')
}

/** The last config text parsed and its document, frozen: the project and its MCP servers read the same file. */
let lastDocument: { text: string; document: unknown } | null = null

/**
 * The YAML document of a nao_config.yaml text, as every reader of the file takes it (templates blanked, a server's
 * `{{ env('…') }}` marked); the same text is parsed once. Frozen, as its readers share it. Throws YamlError.
 */
export function configDocument(text: string): unknown {
  if (lastDocument?.text === text) return lastDocument.document
  const document = deepFreeze(readYaml(blankTemplates(markEnvReferences(text))))
  lastDocument = { text, document }
  return document
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

/** Parses the config text. Database paths stay as written; see resolveDatabases. */
export function parseConfig(text: string): ProjectConfig {
  const diagnostics: Diagnostic[] = []
  const problem = (message: string): void => void diagnostics.push({ file: CONFIG_FILE, problem: message })
  let document: unknown
  try {
    document = configDocument(text)
  } catch (error) {
    problem(`is not valid YAML (${firstLine(error)}); its settings are ignored`)
    return { projectName: null, databases: [], diagnostics }
  }
  if (document === null || document === undefined) return { projectName: null, databases: [], diagnostics }
  if (!isRecord(document)) {
    problem('is not a YAML mapping (key: value); its settings are ignored')
    return { projectName: null, databases: [], diagnostics }
  }
  const name = document.project_name
  const projectName = typeof name === 'string' && name.trim() !== '' ? name.trim() : null
  const entries = document.databases ?? []
  if (!Array.isArray(entries)) {
    problem('`databases:` is not a list; no database files are known')
    return { projectName, databases: [], diagnostics }
  }
  const databases: ConfiguredDatabase[] = []
  entries.forEach((entry, index) => {
    const parsed = databaseEntry.safeParse(entry)
    if (!parsed.success) {
      problem(`databases[${index}] needs at least \`name\` and \`type\`; skipped`)
      return
    }
    const { name, path, include = [], exclude = [] } = parsed.data
    const type = parsed.data.type.toLowerCase()
    const accessors = parsed.data.accessors && parsed.data.accessors.length > 0 ? parsed.data.accessors : [...DEFAULT_ACCESSORS]
    const serverEngine = serverEngineForType(type)
    if (serverEngine?.resolveConnection) {
      const server = serverEngine.resolveConnection(entry, (message) => problem(`databases[${index}] (${name}): ${message}`))
      // Listed even when incomplete (the diagnostic says what is missing); only a complete one can be queried.
      databases.push({ index, name, type: serverEngine.id, path: null, accessors, include, exclude, ...(server ? { server } : {}) })
      return
    }
    databases.push({ index, name, type, path: path || null, accessors, include, exclude })
  })
  return { projectName, databases, diagnostics }
}

/**
 * Resolves each database's path inside `root` through the safe-path guard. Done on every rebuild, not
 * cached with the config: a database file can appear (a sync) or vanish without the config changing.
 */
export function resolveDatabases(root: string, databases: readonly ConfiguredDatabase[]): { databases: DatabaseConfig[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = []
  const resolved = databases.map(({ index, path, ...database }): DatabaseConfig => {
    if (path === null) return { ...database, path: null }
    const where = `databases[${index}] (${database.name})`
    // A glob (data/*.parquet) names no single file: it must stay inside the project as written; DuckDB, locked
    // to the project's files, refuses whatever it matches through a symlink out.
    if (isGlobPath(path)) {
      const absolute = resolve(root, path)
      if (isInside(root, absolute)) return { ...database, path: absolute }
      diagnostics.push({ file: CONFIG_FILE, problem: `${where}: path refused. The glob "${path}" reaches outside the project.` })
      return { ...database, path: null }
    }
    try {
      return { ...database, path: resolveInside(root, path) }
    } catch (error) {
      if (error instanceof PathOutsideProjectError) diagnostics.push({ file: CONFIG_FILE, problem: `${where}: path refused. ${error.message}` })
      else if (error instanceof ProjectPathMissingError) {
        diagnostics.push({ file: CONFIG_FILE, problem: `${where}: ${error.message} SQL cannot run on it until it exists` })
      } else throw error
      return { ...database, path: null }
    }
  })
  return { databases: resolved, diagnostics }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function firstLine(error: unknown): string {
  const message = errorMessage(error)
  return message.split('\n')[0]
}
