import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { makeLargeProject } from '../../../test/support/large-project'
import { assembleSystemPrompt } from '../prompt/system/assemble'
import { createAgentTools } from '../agent/tools'
import { loadProject } from './load'
import type { ProjectSnapshot } from './types'
import { openProject } from './watch'

// A big project opens before most of databases/ is listed (issue #17): the first snapshot has the connections
// and some tables, and gives the same prompt; the one that follows has every table and file, as a full load does.

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function prompt(project: ProjectSnapshot): string {
  return assembleSystemPrompt({ project, memory: { included: [], droppedCount: 0 }, now: new Date('2026-11-30T12:00:00Z'), timezone: 'UTC', testMode: false, tools: createAgentTools().map((tool) => tool.name) }).text
}

describe('openProject on a big project', () => {
  it('gives the first prompt before listing every schema folder, then publishes every table and file', async () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    makeLargeProject(temp.dir, { tables: 40, skills: 5, rulesBytes: 4096 })
    const full = await loadProject(temp.dir)
    const model = await openProject(temp.dir, { debounceMs: 20, listSchemaFoldersAtOpenUpTo: 10 })
    cleanups.push(() => model.close())

    const first = model.snapshot()
    expect(first.connections).toEqual(full.connections)
    expect(first.tables.length).toBeGreaterThan(0)
    expect(first.tables.length).toBeLessThan(full.tables.length)
    expect(first.tables.every((table) => table.files.length === 0)).toBe(true)
    expect(prompt(first)).toBe(prompt(full))

    const complete = await new Promise<ProjectSnapshot>((resolve) => model.onChange(resolve))
    expect(complete.version).toBeGreaterThan(first.version)
    expect(complete.tables).toEqual(full.tables)
    expect(complete.files).toEqual(full.files)
    expect(prompt(complete)).toBe(prompt(full))
  })

  it('lists schema folders before the first snapshot while there are few', async () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    makeLargeProject(temp.dir, { tables: 12, skills: 2, rulesBytes: 1024 })
    const model = await openProject(temp.dir, { listSchemaFoldersAtOpenUpTo: 20 })
    cleanups.push(() => model.close())
    expect(model.snapshot().files).toEqual((await loadProject(temp.dir)).files)
  })
})
