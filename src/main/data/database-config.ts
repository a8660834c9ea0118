import { existsSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { CONFIG_FILE, parseConfig } from '../project/config'
import { readRegularFileSync } from '../project/regular-file'
import { resolveInside } from '../project/safe-path'
import type { DatabaseConfig } from '../project/types'
import { errorMessage } from '../../shared/error-message'

// The `databases:` list of nao_config.yaml as sync reads it when nobody hands it the loaded project's:
// through the project's one parser, with paths made absolute but not checked (sync checks each and says
// what is wrong with it).

/** Same cap as the project model's config read; a config file is a few KB. */
const MAX_CONFIG_BYTES = 1024 * 1024

export interface DatabaseConfigs {
  databases: DatabaseConfig[]
  /** One sentence per entry (or file) that could not be read; the good entries are still returned. */
  problems: string[]
}

export function readDatabaseConfigs(root: string): DatabaseConfigs {
  if (!existsSync(join(root, CONFIG_FILE))) return { databases: [], problems: [] }
  let text: string
  try {
    // Like every project file: through the realpath guard, and only if it is a regular file.
    text = readRegularFileSync(resolveInside(root, CONFIG_FILE), MAX_CONFIG_BYTES).toString('utf8')
  } catch (error) {
    return { databases: [], problems: [`${CONFIG_FILE} cannot be read: ${firstLine(error)}`] }
  }
  const config = parseConfig(text)
  return {
    databases: config.databases.map(({ index: _index, path, ...database }) => ({ ...database, path: path ? (isAbsolute(path) ? path : resolve(root, path)) : null })),
    problems: config.diagnostics.map((diagnostic) => `${diagnostic.file} ${diagnostic.problem}`)
  }
}

export function firstLine(error: unknown): string {
  const message = errorMessage(error)
  return message.split('\n')[0].trim()
}
