import { basename } from 'node:path'
import type { StoreContext } from './context'
import { StoreNotFoundError } from './errors'
import { bit, flag, integer, text, toRow } from './row'

export interface ProjectRecord {
  id: number
  /** The project's real path (symlinks resolved by the caller): one project per folder. */
  rootPath: string
  name: string
  memoryEnabled: boolean
  createdAt: string
}

function toProject(value: unknown): ProjectRecord {
  const row = toRow(value)
  return {
    id: integer(row, 'id'),
    rootPath: text(row, 'root_path'),
    name: text(row, 'name'),
    memoryEnabled: flag(row, 'memory_enabled'),
    createdAt: text(row, 'created_at')
  }
}

export class ProjectsRepo {
  constructor(private readonly context: StoreContext) {}

  /** The project stored for this folder, created on first use. */
  ensure(rootPath: string, name = basename(rootPath)): ProjectRecord {
    const existing = this.findByRoot(rootPath)
    if (existing) return existing
    return this.context.write(() => {
      this.context
        .statement(`INSERT INTO projects (root_path, name, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`)
        .run(rootPath, name, this.context.now())
      const created = this.findByRoot(rootPath)
      if (!created) throw new Error(`project ${rootPath} vanished right after it was created`)
      return created
    })
  }

  findByRoot(rootPath: string): ProjectRecord | null {
    const row = this.context.read(() =>
      this.context.statement(`SELECT * FROM projects WHERE root_path = ?`).get(rootPath)
    )
    return row === undefined ? null : toProject(row)
  }

  get(id: number): ProjectRecord {
    const row = this.context.read(() => this.context.statement(`SELECT * FROM projects WHERE id = ?`).get(id))
    if (row === undefined) throw new StoreNotFoundError('project', id)
    return toProject(row)
  }

  list(): ProjectRecord[] {
    return this.context.read(() => this.context.statement(`SELECT * FROM projects ORDER BY id`).all()).map(toProject)
  }

  setMemoryEnabled(id: number, enabled: boolean): ProjectRecord {
    return this.context.write(() => {
      const result = this.context
        .statement(`UPDATE projects SET memory_enabled = ? WHERE id = ?`)
        .run(bit(enabled), id)
      if (result.changes === 0) throw new StoreNotFoundError('project', id)
      return this.get(id)
    })
  }
}
