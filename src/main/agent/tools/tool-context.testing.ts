import { loadProject } from '../../project/load'
import type { ProjectSnapshot } from '../../project/types'
import { createDatabasePool } from '../sql/database-pool'
import { createQueryStore } from '../sql/query-store'
import { DEFAULT_TOOL_LIMITS, type ToolContext, type ToolLimits } from './create-tool'

// A real tool context over a project folder, for tests: real project snapshot, real databases.

export async function makeToolContext(
  root: string,
  overrides: { limits?: Partial<ToolLimits>; signal?: AbortSignal; project?: ProjectSnapshot } = {}
): Promise<ToolContext & { close: () => void }> {
  const project = overrides.project ?? (await loadProject(root))
  const databases = createDatabasePool(project, project.files)
  return {
    project,
    signal: overrides.signal ?? new AbortController().signal,
    runId: 'test-run',
    databases,
    queryStore: createQueryStore(),
    readAgentResult: async () => null,
    readToolResult: async () => null,
    limits: { ...DEFAULT_TOOL_LIMITS, ...overrides.limits },
    close: () => databases.close()
  }
}
