import { createDatabasePool, type DatabasePool } from '../agent/sql/database-pool'
import { loadProject, loadProjectForPrompt } from '../project/load'
import { openProject, type ProjectModel } from '../project/watch'
import type { ProjectSnapshot } from '../project/types'
import type { Store } from '../store'
import type { ProjectInfo } from '../../shared/api'
import { exampleQuestions } from './example-questions'

// The open project: its live model (watched in the app, loaded once for the CLI), its row in the store and
// the databases the agent may query. The pool is rebuilt only when the snapshot changes.

export class ProjectSession {
  private pool: { version: number; pool: DatabasePool } | null = null

  private constructor(
    private readonly model: ProjectModel,
    readonly projectId: number
  ) {}

  static async open(store: Store, path: string, options: { watch: boolean; readForPromptOnly?: boolean }): Promise<ProjectSession> {
    const read = options.readForPromptOnly ? loadProjectForPrompt : loadProject
    const model = options.watch ? await openProject(path) : staticModel(await read(path))
    const snapshot = model.snapshot()
    const record = store.projects.ensure(snapshot.root, snapshot.name)
    return new ProjectSession(model, record.id)
  }

  snapshot(): ProjectSnapshot {
    return this.model.snapshot()
  }

  /** The snapshot a prompt asked for now must see (see ProjectModel.freshSnapshot). */
  freshSnapshot(): Promise<ProjectSnapshot> {
    return this.model.freshSnapshot()
  }

  onChange(listener: (snapshot: ProjectSnapshot) => void): () => void {
    return this.model.onChange(listener)
  }

  databases(): DatabasePool {
    const snapshot = this.snapshot()
    if (this.pool?.version !== snapshot.version) {
      this.pool?.pool.close()
      this.pool = { version: snapshot.version, pool: createDatabasePool(snapshot, snapshot.files) }
    }
    return this.pool.pool
  }

  info(): ProjectInfo {
    return projectInfo(this.snapshot())
  }

  async close(): Promise<void> {
    this.pool?.pool.close()
    this.pool = null
    await this.model.close()
  }
}

export function projectInfo(snapshot: ProjectSnapshot): ProjectInfo {
  return {
    root: snapshot.root,
    name: snapshot.name,
    tables: snapshot.tables.map(({ type, database, schema, table }) => ({ type, database, schema, table })),
    skills: snapshot.skills.map(({ name, description, location }) => ({ name, description, location })),
    tests: snapshot.tests,
    diagnostics: snapshot.diagnostics,
    examples: exampleQuestions(snapshot)
  }
}

/** A project read once, for one-shot commands: no watcher to keep the process alive. */
function staticModel(snapshot: ProjectSnapshot): ProjectModel {
  return { snapshot: () => snapshot, freshSnapshot: () => Promise.resolve(snapshot), onChange: () => () => undefined, close: async () => undefined }
}
