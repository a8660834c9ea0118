import { inspect } from 'node:util'
import * as z from '../../shared/zod-mini'

// A database server declared in nao_config.yaml with nao's keys (host, port, database, user, password,
// schema_name). `user` and `password` may be `{{ env('NAME') }}`, as nao allows: they stay references here and
// are evaluated only when connecting, after the user approved the project's request (src/main/trust). Where
// the connection goes (host, port, database, schema) must be written out, so the project cannot choose it
// from the user's environment. The password is wrapped so it can never be printed, logged, serialised or put
// in a prompt.

/** A database server from nao_config.yaml (nao's keys); `user` and `password` may still hold `{{ env('…') }}` references, evaluated only when connecting after the user approved (src/main/trust). */
export interface ServerConnection {
  host: string
  port: number
  database: string
  user: string
  /** Prints as ****; `.reveal()` only when connecting. */
  password: Secret
  /** nao's `schema_name`: the only schema synced when set. */
  schemaName: string | null
}

/** What differs between server engines when their entry is read. */
export interface ServerDefaults {
  /** The engine as the user knows it, for messages: "postgres", "mysql". */
  label: string
  port: number
}

/** A value that prints as **** everywhere (String(), JSON, console, util.inspect); `reveal()` to connect. */
export class Secret {
  readonly #value: string
  constructor(value: string) {
    this.#value = value
  }
  reveal(): string {
    return this.#value
  }
  toString(): string {
    return '****'
  }
  toJSON(): string {
    return '****'
  }
  [inspect.custom](): string {
    return '****'
  }
}

const ENV_REFERENCE = /\{\{\s*env\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*\)\s*\}\}/g
const ENV_MARKER = /__glassbox_env__([A-Za-z_][A-Za-z0-9_]*)__/g

/** Turns `{{ env('NAME') }}` into a plain marker before the YAML parse, so it survives as a value. */
export function markEnvReferences(text: string): string {
  return text.replace(ENV_REFERENCE, (_match, name: string) => `__glassbox_env__${name}__`)
}

const scalar = z.pipe(z.union([z.string(), z.number()]), z.transform(String))

const serverEntry = z.object({
  host: z.optional(scalar),
  port: z.optional(scalar),
  database: z.optional(scalar),
  user: z.optional(scalar),
  password: z.nullish(scalar),
  schema_name: z.nullish(scalar)
})

/** The environment variables a value refers to (after markEnvReferences), in order of appearance. */
export function envVariablesIn(value: string): string[] {
  return [...value.matchAll(ENV_MARKER)].map((match) => match[1])
}

/** The value with its references evaluated; a variable that is not set is named (never a value shown). */
export function resolveEnvReferences(value: string, env: NodeJS.ProcessEnv = process.env): string {
  return value.replace(ENV_MARKER, (_match, name: string) => {
    const found = env[name]
    if (found === undefined) throw new Error(`the environment variable ${name} is not set`)
    return found
  })
}

/** The value as the user is shown it: a reference reads `$NAME`. */
export function showEnvReferences(value: string): string {
  return value.replace(ENV_MARKER, (_match, name: string) => `$${name}`)
}

/** The connection of a server entry, or null with `problem` called. Nothing from the environment is read here. */
export function readServerConnection(entry: unknown, defaults: ServerDefaults, problem: (message: string) => void): ServerConnection | null {
  const parsed = serverEntry.safeParse(entry)
  if (!parsed.success) {
    problem('host, port, database, user and password must be text or numbers')
    return null
  }
  const { host, port, database, user, password, schema_name: schemaName } = parsed.data
  const located = { host, port, database, schema_name: schemaName }
  const fromEnvironment = Object.entries(located).filter(([, value]) => value !== null && value !== undefined && envVariablesIn(value).length > 0)
  if (fromEnvironment.length > 0) {
    const keys = fromEnvironment.map(([key]) => `\`${key}\``).join(', ')
    problem(`env() is allowed only in \`user\` and \`password\`; ${keys} must be written out (not evaluated, so this database cannot be queried)`)
    return null
  }
  const connection = {
    host: host || 'localhost',
    port: Number(port || String(defaults.port)),
    database: database ?? '',
    user: user ?? '',
    password: new Secret(password ?? ''),
    schemaName: schemaName || null
  }
  if (!Number.isInteger(connection.port) || connection.port <= 0 || connection.port > 65_535) {
    problem(`port must be a number from 1 to 65535`)
    return null
  }
  if (!connection.database || !connection.user) {
    problem(`a ${defaults.label} database needs \`database\` and \`user\``)
    return null
  }
  return connection
}
