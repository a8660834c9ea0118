import { inspect } from 'node:util'
import { z } from 'zod'

// A database server declared in nao_config.yaml with nao's keys (host, port, database, user, password,
// schema_name). Values may be `{{ env('NAME') }}`, as nao allows: those are the only templates evaluated,
// and only in `readServerConnection`, which each server engine calls from its own `resolveConnection`.
// The password is wrapped so it can never be printed, logged, serialised or put in a prompt.

/** A database server from nao_config.yaml (nao's keys); `{{ env('…') }}` values are already resolved. */
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

const scalar = z.union([z.string(), z.number()]).transform(String)

const serverEntry = z.object({
  host: scalar.optional(),
  port: scalar.optional(),
  database: scalar.optional(),
  user: scalar.optional(),
  password: scalar.nullish(),
  schema_name: scalar.nullish()
})

/**
 * The connection of a server entry, or null with `problem` called. `env` is injectable for tests; missing
 * variables are reported by name (never by value).
 */
export function readServerConnection(
  entry: unknown,
  defaults: ServerDefaults,
  problem: (message: string) => void,
  env: NodeJS.ProcessEnv = process.env
): ServerConnection | null {
  const parsed = serverEntry.safeParse(entry)
  if (!parsed.success) {
    problem('host, port, database, user and password must be text or numbers')
    return null
  }
  const missingVariables = new Set<string>()
  const resolve = (value: string | null | undefined): string => {
    if (value === null || value === undefined) return ''
    return value.replace(ENV_MARKER, (_match, name: string) => {
      const found = env[name]
      if (found === undefined) missingVariables.add(name)
      return found ?? ''
    })
  }
  const { host, port, database, user, password, schema_name: schemaName } = parsed.data
  const connection = {
    host: resolve(host) || 'localhost',
    port: Number(resolve(port) || String(defaults.port)),
    database: resolve(database),
    user: resolve(user),
    password: new Secret(resolve(password)),
    schemaName: resolve(schemaName) || null
  }
  if (missingVariables.size > 0) problem(`environment variable(s) not set: ${[...missingVariables].join(', ')}`)
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
