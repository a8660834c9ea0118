import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { MemoryItem } from '../../../shared/prompt'
import type { Connection, ProjectSnapshot, TableRef } from '../../project/types'
import { emptySnapshot } from '../../project/build'

// Hand-built snapshots for the prompt's tests and bench, independent of the project loader.

/** An empty project; pass the fields a test is about. */
export function makeProject(fields: Partial<ProjectSnapshot> = {}): ProjectSnapshot {
  return { ...emptySnapshot('/projects/example'), version: 1, ...fields }
}

export function makeMemory(id: number, category: MemoryItem['category'], content: string): MemoryItem {
  return { id, category, content, tokens: Math.ceil(content.length / 4), chatId: null, createdAt: '2026-11-01T10:00:00.000Z' }
}

const TABLE_PATH = /^databases\/type=([^/]+)\/database=([^/]+)\/schema=([^/]+)\/table=([^/]+)$/

/**
 * Reads a nao-style project folder the simple way (RULES.md, table folders, top-level context folders) — enough
 * for prompt tests and the bench, without the real loader's safety checks or watching.
 */
export function readProjectByHand(root: string): ProjectSnapshot {
  const absolute = resolve(root)
  const tables = tableFolders(absolute)
  const connections: Connection[] = []
  for (const table of tables) {
    if (!connections.some((c) => c.type === table.type && c.database === table.database)) {
      connections.push({ type: table.type, database: table.database })
    }
  }
  const rulesPath = join(absolute, 'RULES.md')
  const has = (name: string) => existsSync(join(absolute, name))
  return makeProject({
    root: absolute,
    name: absolute.split('/').pop() ?? 'project',
    rules: existsSync(rulesPath) ? { source: 'RULES.md', text: readFileSync(rulesPath, 'utf8').trim() } : null,
    connections,
    tables,
    contextFolders: {
      databases: has('databases'),
      docs: has('docs'),
      semantics: has('semantics'),
      repos: has('repos'),
      queries: has('queries')
    }
  })
}

function tableFolders(root: string): TableRef[] {
  const databases = join(root, 'databases')
  if (!existsSync(databases)) return []
  const tables: TableRef[] = []
  for (const entry of readdirSync(databases, { recursive: true, withFileTypes: true })) {
    if (!entry.isDirectory()) continue
    const dir = join(entry.parentPath, entry.name).slice(root.length + 1).split('\\').join('/')
    const match = TABLE_PATH.exec(dir)
    if (!match) continue
    const files = readdirSync(join(root, dir)).sort()
    tables.push({ type: match[1], database: match[2], schema: match[3], table: match[4], dir, files })
  }
  return tables.sort((a, b) => a.dir.localeCompare(b.dir))
}
