import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { LARGE_PROJECT_ENGINES, makeLargeProject } from '../../../test/support/large-project'
import { assembleSystemPrompt } from '../prompt/system/assemble'
import { createAgentTools } from '../agent/tools'
import { loadProject, loadProjectForPrompt } from './load'
import type { ProjectSnapshot } from './types'

// The bench's large project, scaled down so the test stays fast: the same layout, counts checked exactly.

const cleanups: Array<() => void> = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

describe('loadProject at scale', () => {
  it('reads every table, skill and file of a generated project with no diagnostics', async () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const shape = makeLargeProject(temp.dir, { tables: 250, skills: 30, rulesBytes: 20 * 1024 })
    const snapshot = await loadProject(temp.dir)
    expect(snapshot.name).toBe('large')
    expect(snapshot.connections).toEqual([...LARGE_PROJECT_ENGINES].sort((a, b) => (a.type < b.type ? -1 : 1)))
    expect(snapshot.tables).toHaveLength(shape.tables)
    expect(snapshot.tables.every((table) => table.files.join() === 'columns.md,description.md,preview.md')).toBe(true)
    expect(snapshot.skills).toHaveLength(shape.skills)
    expect(Buffer.byteLength(snapshot.rules?.text ?? '')).toBe(shape.rulesBytes)
    // RULES.md, nao_config.yaml, .naoignore, docs/glossary.md, then the tables' and skills' files.
    expect(snapshot.files).toHaveLength(4 + shape.tables * 3 + shape.skills)
    expect(snapshot.diagnostics).toEqual([])
  })
})

describe('loadProjectForPrompt at scale', () => {
  const promptOf = (project: ProjectSnapshot): string =>
    assembleSystemPrompt({
      project,
      memory: { included: [], droppedCount: 0 },
      now: new Date('2026-11-30T10:00:00Z'),
      timezone: 'UTC',
      testMode: false,
      tools: createAgentTools().map((tool) => tool.name)
    }).text

  it('lists the connections and one schema of tables, not every table folder, and gives the same system prompt', async () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    makeLargeProject(temp.dir, { tables: 250, skills: 30, rulesBytes: 20 * 1024 })
    const whole = await loadProject(temp.dir)
    const lean = await loadProjectForPrompt(temp.dir)
    expect(lean.connections).toEqual(whole.connections)
    expect(lean.skills).toEqual(whole.skills)
    expect(lean.rules).toEqual(whole.rules)
    // 20 schema folders: the tables of the first one, without their files.
    expect(lean.tables.length).toBeGreaterThan(0)
    expect(lean.tables.length).toBeLessThan(whole.tables.length / 10)
    expect(lean.tables.every((table) => table.files.length === 0)).toBe(true)
    expect(promptOf(lean)).toBe(promptOf(whole))
  })

  it('gives the same system prompt when only a table past the first schema has an indexes.md', async () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    makeLargeProject(temp.dir, { tables: 250, skills: 30, rulesBytes: 20 * 1024 })
    const whole = await loadProject(temp.dir)
    const last = whole.tables.at(-1)
    if (!last) throw new Error('the generated project has no tables')
    writeFileSync(join(temp.dir, last.dir, 'indexes.md'), '| key | columns |\n| --- | --- |\n| sort | id |\n')
    const lean = await loadProjectForPrompt(temp.dir)
    expect(lean.tables.some((table) => table.dir === last.dir)).toBe(false)
    expect(promptOf(lean)).toBe(promptOf(await loadProject(temp.dir)))
  })
})
