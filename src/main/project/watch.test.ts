import { mkdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyNaoLayout } from '../../../test/support/fixtures'
import { loadProject } from './load'
import type { ProjectSnapshot } from './types'
import { FOLDER_GONE_PROBLEM, openProject, type WatchedProjectModel } from './watch'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function openCopy(options: Parameters<typeof openProject>[1] = {}): Promise<{ dir: string; model: WatchedProjectModel }> {
  const copy = copyNaoLayout()
  cleanups.push(copy.cleanup)
  const model = await openProject(copy.dir, options)
  cleanups.push(() => model.close())
  await model.whenWatching()
  return { dir: copy.dir, model }
}

/** Polls every 10 ms until `check` passes or `timeoutMs` runs out; returns the elapsed time. */
async function waitFor(check: () => boolean, timeoutMs: number): Promise<number> {
  const start = performance.now()
  while (!check()) {
    if (performance.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return performance.now() - start
}

/** Like waitFor, for a check that has to read the disk. */
async function waitForAsync(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const start = performance.now()
  while (!(await check())) {
    if (performance.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

function sameButVersion(a: ProjectSnapshot, b: ProjectSnapshot): boolean {
  return JSON.stringify({ ...a, version: 0 }) === JSON.stringify({ ...b, version: 0 })
}

describe('openProject', () => {
  it('starts with the loaded snapshot at version 0, which the rescan after watcher start-up leaves alone', async () => {
    const { model } = await openCopy({ debounceMs: 20 })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(model.snapshot().version).toBe(0)
    expect(model.snapshot().connections).toEqual([{ type: 'duckdb', database: 'jaffle_shop' }])
  })

  it('catches a change made while the watcher was still starting', async () => {
    const copy = copyNaoLayout()
    cleanups.push(copy.cleanup)
    const model = await openProject(copy.dir, { debounceMs: 20 })
    cleanups.push(() => model.close())
    writeFileSync(join(copy.dir, 'RULES.md'), 'Written during start-up.')
    await waitFor(() => model.snapshot().rules?.text === 'Written during start-up.', 3000)
  })

  // A prompt asked for right after an edit must show it: no waiting for the OS to report it or for the debounce.
  // The debounce here is far longer than the test may take, so only the prompt's own look can have found it.
  it('shows a RULES.md edit in a prompt asked for at once, before the watcher applies it', async () => {
    const { dir, model } = await openCopy({ debounceMs: 60_000, maxWaitMs: 60_000 })
    writeFileSync(join(dir, 'RULES.md'), 'Answer in French.')
    const snapshot = await model.freshSnapshot()
    expect(snapshot.rules?.text).toBe('Answer in French.')
    expect(snapshot.version).toBe(1)
    expect(model.snapshot()).toBe(snapshot)
  })

  it('shows a new, an edited and a removed skill in a prompt asked for at once', async () => {
    const { dir, model } = await openCopy({ debounceMs: 60_000, maxWaitMs: 60_000 })
    const skills = join(dir, 'agent', 'skills')
    const before = model.snapshot().skills.map((skill) => skill.location)
    writeFileSync(join(skills, 'churn.md'), '---\ndescription: churn\n---\nbody')
    expect((await model.freshSnapshot()).skills.find((skill) => skill.name === 'churn')).toMatchObject({ description: 'churn' })
    writeFileSync(join(skills, 'churn.md'), '---\ndescription: churn, by cohort\n---\nlonger body')
    expect((await model.freshSnapshot()).skills.find((skill) => skill.name === 'churn')?.description).toBe('churn, by cohort')
    rmSync(join(skills, 'churn.md'))
    expect((await model.freshSnapshot()).skills.map((skill) => skill.location)).toEqual(before)
  })

  it('drops the diagnostic of a refused skill removed, in a prompt asked for at once', async () => {
    const { dir, model } = await openCopy({ debounceMs: 60_000, maxWaitMs: 60_000 })
    writeFileSync(join(dir, 'agent', 'skills', 'binary.md'), Buffer.from([0x61, 0x00, 0x62]))
    expect((await model.freshSnapshot()).diagnostics).toContainEqual({ file: 'agent/skills/binary.md', problem: expect.stringMatching(/binary/) })
    rmSync(join(dir, 'agent', 'skills', 'binary.md'))
    expect((await model.freshSnapshot()).diagnostics.map((diagnostic) => diagnostic.file)).not.toContain('agent/skills/binary.md')
  })

  it('shows a skills folder created after the open in a prompt asked for at once', async () => {
    const { dir, model } = await openCopy({ debounceMs: 60_000, maxWaitMs: 60_000 })
    rmSync(join(dir, 'agent'), { recursive: true, force: true })
    expect((await model.freshSnapshot()).skills).toEqual([])
    mkdirSync(join(dir, 'agent', 'skills'), { recursive: true })
    writeFileSync(join(dir, 'agent', 'skills', 'first.md'), 'The first skill.')
    expect((await model.freshSnapshot()).skills.map((skill) => skill.location)).toEqual(['agent/skills/first.md'])
  })

  // Once the watcher is up, a prompt learns of edits from its events (let through by the event fence) rather
  // than a stat per file; an edit that a stat cannot see shows that the events are what it relies on.
  it.runIf(process.platform === 'linux')('shows an edit that kept the size and mtime, in a prompt asked for at once', async () => {
    const { dir, model } = await openCopy({ debounceMs: 60_000, maxWaitMs: 60_000 })
    const rules = join(dir, 'RULES.md')
    // A whole second, which the file keeps exactly (a Date would lose what is below the millisecond).
    const sameTime = 1_700_000_000
    writeFileSync(rules, 'Answer in French.')
    utimesSync(rules, sameTime, sameTime)
    expect((await model.freshSnapshot()).rules?.text).toBe('Answer in French.')
    writeFileSync(rules, 'Answer in German.')
    utimesSync(rules, sameTime, sameTime)
    expect((await model.freshSnapshot()).rules?.text).toBe('Answer in German.')
  })

  // The prompt's folders are watched before their files are first read, so this holds from the open on,
  // before the project's watcher has finished its scan (seconds on a big project).
  it.runIf(process.platform === 'linux')('relies on the events from the open on, before the watcher is up', async () => {
    const copy = copyNaoLayout()
    cleanups.push(copy.cleanup)
    const model = await openProject(copy.dir, { debounceMs: 60_000, maxWaitMs: 60_000 })
    cleanups.push(() => model.close())
    const skill = join(copy.dir, 'agent', 'skills', 'timed.md')
    const sameTime = 1_700_000_000
    writeFileSync(skill, '---\ndescription: first\n---\nbody')
    utimesSync(skill, sameTime, sameTime)
    expect((await model.freshSnapshot()).skills.find((item) => item.name === 'timed')?.description).toBe('first')
    writeFileSync(skill, '---\ndescription: later\n---\nbody')
    utimesSync(skill, sameTime, sameTime)
    expect((await model.freshSnapshot()).skills.find((item) => item.name === 'timed')?.description).toBe('later')
  })

  it('shows an edit of the file a symlinked skill leads to, in a prompt asked for at once', async () => {
    const { dir, model } = await openCopy({ debounceMs: 60_000, maxWaitMs: 60_000 })
    writeFileSync(join(dir, 'docs', 'shared-skill.md'), '---\ndescription: shared\n---\nbody')
    symlinkSync(join('..', '..', 'docs', 'shared-skill.md'), join(dir, 'agent', 'skills', 'shared.md'))
    expect((await model.freshSnapshot()).skills.find((skill) => skill.name === 'shared')?.description).toBe('shared')
    // The watch of agent/skills sees nothing: only the file in docs/ changes.
    writeFileSync(join(dir, 'docs', 'shared-skill.md'), '---\ndescription: shared, edited\n---\nbody')
    expect((await model.freshSnapshot()).skills.find((skill) => skill.name === 'shared')?.description).toBe('shared, edited')
  })

  // The watch of a new folder comes a little after the folder's own event: an edit in between has no event.
  it('shows an edit in a prompt folder made just before, in prompts asked for one after another', async () => {
    const { dir, model } = await openCopy({ debounceMs: 60_000, maxWaitMs: 60_000 })
    rmSync(join(dir, 'agent', 'prompts'), { recursive: true, force: true })
    expect((await model.freshSnapshot()).systemOverride).toBeNull()
    for (let round = 0; round < 20; round++) {
      mkdirSync(join(dir, 'agent', 'prompts'))
      writeFileSync(join(dir, 'agent', 'prompts', 'system.md'), `First system prompt ${round}.`)
      expect((await model.freshSnapshot()).systemOverride?.text).toBe(`First system prompt ${round}.`)
      writeFileSync(join(dir, 'agent', 'prompts', 'system.md'), `Second system prompt ${round}.`)
      expect((await model.freshSnapshot()).systemOverride?.text).toBe(`Second system prompt ${round}.`)
      rmSync(join(dir, 'agent', 'prompts'), { recursive: true })
      expect((await model.freshSnapshot()).systemOverride).toBeNull()
    }
  })

  // A folder removed and made again between two prompts may get the same inode number, and its old watch died
  // with the old folder.
  it('shows edits in a prompt folder removed and made again between two prompts', async () => {
    const { dir, model } = await openCopy({ debounceMs: 60_000, maxWaitMs: 60_000 })
    const prompts = join(dir, 'agent', 'prompts')
    for (let round = 0; round < 20; round++) {
      rmSync(prompts, { recursive: true, force: true })
      mkdirSync(prompts)
      writeFileSync(join(prompts, 'system.md'), `Made again ${round}.`)
      expect((await model.freshSnapshot()).systemOverride?.text).toBe(`Made again ${round}.`)
      writeFileSync(join(prompts, 'system.md'), `Then edited ${round}.`)
      expect((await model.freshSnapshot()).systemOverride?.text).toBe(`Then edited ${round}.`)
    }
  })

  // Past maxPaths changes a batch is a full rescan, which says nothing of which folders were made again.
  it('shows edits in a prompt folder made again within a burst the watcher applies as a full rescan', async () => {
    const { dir, model } = await openCopy({ debounceMs: 20 })
    const prompts = join(dir, 'agent', 'prompts')
    rmSync(prompts, { recursive: true, force: true })
    mkdirSync(prompts)
    writeFileSync(join(prompts, 'system.md'), 'Made again in a burst.')
    // Into a folder already watched, so each file is an event of its own.
    for (let index = 0; index < 600; index++) writeFileSync(join(dir, 'docs', `burst-${index}.md`), 'x')
    await waitFor(() => model.snapshot().files.includes('docs/burst-599.md') && model.snapshot().systemOverride?.text === 'Made again in a burst.', 5000)
    writeFileSync(join(prompts, 'system.md'), 'Edited after the burst.')
    expect((await model.freshSnapshot()).systemOverride?.text).toBe('Edited after the burst.')
  })

  it('asks the disk nothing new when nothing changed: the same snapshot, no new version', async () => {
    const { model } = await openCopy({ debounceMs: 20 })
    const before = model.snapshot()
    expect(await model.freshSnapshot()).toBe(before)
  })

  it('publishes nothing more when the watcher later reports an edit a prompt has already read', async () => {
    const { dir, model } = await openCopy({ debounceMs: 20 })
    // Past the rescan that follows the watcher's start-up, so the OS's report is a batch of its own.
    await new Promise((resolve) => setTimeout(resolve, 200))
    let published = 0
    model.onChange(() => published++)
    writeFileSync(join(dir, 'RULES.md'), 'Read by the prompt first.')
    const read = await model.freshSnapshot()
    // The OS's report and the debounce after it, with room to spare on a loaded machine.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(model.snapshot()).toBe(read)
    expect(published).toBe(1)
  })

  it('still batches changes nobody asked a prompt for until the debounce has passed', async () => {
    const { dir, model } = await openCopy({ debounceMs: 1500 })
    writeFileSync(join(dir, 'RULES.md'), 'Answer in French.')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(model.snapshot().rules?.text).not.toBe('Answer in French.')
    await waitFor(() => model.snapshot().rules?.text === 'Answer in French.', 5000)
    expect(model.snapshot().version).toBe(1)
  })

  it('keeps the first snapshot\'s file list as the folder was at the open, though it is listed only when first read', async () => {
    const copy = copyNaoLayout()
    cleanups.push(copy.cleanup)
    const model = await openProject(copy.dir)
    cleanups.push(() => model.close())
    const first = model.snapshot()
    writeFileSync(join(copy.dir, 'agent', 'skills', 'churn.md'), '---\ndescription: churn\n---\nbody')
    const next = await model.freshSnapshot()
    expect(next.files).toContain('agent/skills/churn.md')
    expect(first.files).not.toContain('agent/skills/churn.md')
    expect(first.files).toEqual((await loadProject(copy.dir)).files.filter((path) => path !== 'agent/skills/churn.md'))
  })

  it('keeps the first snapshot\'s skill objects through the rescan after watcher start-up and later changes', async () => {
    const copy = copyNaoLayout()
    cleanups.push(copy.cleanup)
    const model = await openProject(copy.dir, { debounceMs: 20 })
    cleanups.push(() => model.close())
    const first = model.snapshot().skills
    expect(first.length).toBeGreaterThan(0)
    await model.whenWatching()
    writeFileSync(join(copy.dir, 'docs', 'notes.md'), 'A note.')
    await waitFor(() => model.snapshot().files.includes('docs/notes.md'), 3000)
    expect(model.snapshot().skills).toEqual(first)
    model.snapshot().skills.forEach((skill, index) => expect(skill).toBe(first[index]))
  })

  it('picks up a new skill, a new table and a deleted file', async () => {
    const { dir, model } = await openCopy({ debounceMs: 50 })
    const seen: ProjectSnapshot[] = []
    model.onChange((snapshot) => seen.push(snapshot))
    mkdirSync(join(dir, 'agent', 'skills'), { recursive: true })
    writeFileSync(join(dir, 'agent', 'skills', 'churn.md'), '---\ndescription: churn\n---\nbody')
    const table = join(dir, 'databases', 'type=duckdb', 'database=jaffle_shop', 'schema=main', 'table=refunds')
    mkdirSync(table)
    writeFileSync(join(table, 'columns.md'), '# refunds')
    rmSync(join(dir, 'tests', 'total_revenue.yml'))
    await waitFor(() => {
      const snapshot = model.snapshot()
      return snapshot.skills.length === 3 && snapshot.tables.length === 9 && snapshot.tests.length === 0
    }, 2000)
    expect(model.snapshot().skills.find((skill) => skill.name === 'churn')).toMatchObject({ name: 'churn', description: 'churn' })
    expect(model.snapshot().tables.find((ref) => ref.table === 'refunds')?.files).toEqual(['columns.md'])
    expect(seen.at(-1)).toBe(model.snapshot())
  })

  it('publishes a file added to a table folder though .naoignore hides it from the file list', async () => {
    const { dir, model } = await openCopy({ debounceMs: 50 })
    const orders = () => model.snapshot().tables.find((ref) => ref.table === 'orders')
    expect(orders()?.files).toEqual(['columns.md', 'description.md', 'preview.md'])
    const files = model.snapshot().files
    // `*.j2` is in the fixture's .naoignore: the table's own list is all that changes.
    writeFileSync(join(dir, 'databases', 'type=duckdb', 'database=jaffle_shop', 'schema=main', 'table=orders', 'profile.j2'), '{{ x }}')
    await waitFor(() => orders()?.files.includes('profile.j2') ?? false, 3000)
    expect(model.snapshot().files).toEqual(files)
  })

  it('applies a burst of 2,000 file writes in one or very few rebuilds', async () => {
    const { dir, model } = await openCopy({ debounceMs: 200 })
    let rebuilds = 0
    model.onChange(() => rebuilds++)
    const docs = join(dir, 'docs', 'burst')
    mkdirSync(docs)
    for (let i = 0; i < 2000; i++) writeFileSync(join(docs, `note-${i}.md`), `note ${i}`)
    await waitFor(() => model.snapshot().files.filter((file) => file.startsWith('docs/burst/')).length === 2000, 5000)
    expect(rebuilds).toBeLessThanOrEqual(3)
  })

  it('keeps the last good state when the folder is deleted, and recovers when it is back', async () => {
    const { dir, model } = await openCopy({ debounceMs: 50, livenessMs: 100 })
    const before = model.snapshot()
    rmSync(dir, { recursive: true, force: true })
    await waitFor(() => model.snapshot().diagnostics.some((diagnostic) => diagnostic.problem === FOLDER_GONE_PROBLEM), 3000)
    expect(model.snapshot().tables).toEqual(before.tables)
    expect(model.snapshot().rules).toEqual(before.rules)

    mkdirSync(dir)
    writeFileSync(join(dir, 'RULES.md'), 'A new beginning.')
    await waitFor(() => model.snapshot().rules?.text === 'A new beginning.', 3000)
    expect(model.snapshot().diagnostics).toEqual([])
    expect(model.snapshot().tables).toEqual([])
  })

  it('keeps the last good state when the folder is renamed, and recovers when renamed back', async () => {
    const { dir, model } = await openCopy({ debounceMs: 50, livenessMs: 100 })
    const moved = dir + '-moved'
    renameSync(dir, moved)
    await waitFor(() => model.snapshot().diagnostics.some((diagnostic) => diagnostic.problem === FOLDER_GONE_PROBLEM), 3000)
    expect(model.snapshot().tables).toHaveLength(8)
    writeFileSync(join(moved, 'RULES.md'), 'Changed while away.')

    renameSync(moved, dir)
    await waitFor(() => model.snapshot().rules?.text === 'Changed while away.', 3000)
    expect(model.snapshot().diagnostics).toEqual([])
    writeFileSync(join(dir, 'RULES.md'), 'Watched again.')
    await waitFor(() => model.snapshot().rules?.text === 'Watched again.', 1000)
  })

  it('after a mix of changes, matches a fresh load of the folder', async () => {
    const { dir, model } = await openCopy({ debounceMs: 30 })
    const schema = join(dir, 'databases', 'type=duckdb', 'database=jaffle_shop', 'schema=main')
    rmSync(join(schema, 'table=orders'), { recursive: true })
    renameSync(join(schema, 'table=customers'), join(schema, 'table=clients'))
    writeFileSync(join(dir, '.naoignore'), 'docs/\n')
    mkdirSync(join(dir, 'agent', 'prompts'), { recursive: true })
    writeFileSync(join(dir, 'agent', 'prompts', 'slack.md'), 'Be brief on Slack.')
    writeFileSync(join(dir, 'nao_config.yaml'), 'project_name: renamed\n')
    await waitForAsync(async () => sameButVersion(model.snapshot(), await loadProject(dir)), 3000)
    expect(model.snapshot().tables.map((ref) => ref.table)).toContain('clients')
    expect(model.snapshot().files.some((file) => file.startsWith('docs/'))).toBe(false)
  })

  it('lists the same files as a fresh load after a prompt read a skill that came and one that went', async () => {
    const { dir, model } = await openCopy({ debounceMs: 60_000, maxWaitMs: 60_000 })
    writeFileSync(join(dir, 'agent', 'skills', 'added.md'), 'a new skill')
    expect((await model.freshSnapshot()).files).toEqual((await loadProject(dir)).files)
    rmSync(join(dir, 'agent', 'skills', 'revenue.md'))
    const files = (await model.freshSnapshot()).files
    expect(files).toEqual((await loadProject(dir)).files)
    expect(files).toContain('agent/skills/added.md')
    expect(files).not.toContain('agent/skills/revenue.md')
  })

  it('resolves a database path once its file appears, though the config did not change', async () => {
    const { dir, model } = await openCopy({ debounceMs: 30 })
    writeFileSync(join(dir, 'nao_config.yaml'), 'databases:\n- {name: later, type: sqlite, path: ./later.sqlite}\n')
    await waitFor(() => model.snapshot().databases[0]?.name === 'later', 2000)
    expect(model.snapshot().databases[0].path).toBeNull()
    writeFileSync(join(dir, 'later.sqlite'), '')
    await waitFor(() => model.snapshot().databases[0].path === join(dir, 'later.sqlite'), 2000)
    expect(model.snapshot().diagnostics).toEqual([])
  })

  it('ignores changes under node_modules and .git', async () => {
    const { dir, model } = await openCopy({ debounceMs: 20 })
    mkdirSync(join(dir, 'node_modules', 'pkg'), { recursive: true })
    mkdirSync(join(dir, '.git'))
    writeFileSync(join(dir, 'node_modules', 'pkg', 'index.js'), '')
    writeFileSync(join(dir, '.git', 'HEAD'), '')
    writeFileSync(join(dir, 'docs', 'marker.md'), 'after the ignored writes')
    await waitFor(() => model.snapshot().files.includes('docs/marker.md'), 2000)
    expect(model.snapshot().files.some((file) => file.startsWith('node_modules') || file.startsWith('.git'))).toBe(false)
  })

  it('stops notifying after close and after unsubscribe', async () => {
    const { dir, model } = await openCopy({ debounceMs: 20 })
    let calls = 0
    const unsubscribe = model.onChange(() => calls++)
    unsubscribe()
    writeFileSync(join(dir, 'RULES.md'), 'x')
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(calls).toBe(0)
    await model.close()
    writeFileSync(join(dir, 'RULES.md'), 'y')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(model.snapshot().rules?.text).not.toBe('y')
  })
})
