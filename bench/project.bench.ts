import { execFile } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { MemoryItem } from '../src/shared/prompt'
import { loadProject } from '../src/main/project/load'
import type { ProjectSnapshot } from '../src/main/project/types'
import { openProject } from '../src/main/project/watch'
import { assembleSystemPrompt } from '../src/main/prompt/system/assemble'
import { createAgentTools } from '../src/main/agent/tools'
import { makeTempDir, REPO_ROOT } from '../test/support/fixtures'
import { makeLargeProject } from '../test/support/large-project'
import { measure, summarise, withFloor, type Figure } from './harness'

// system-prompt/large: warm assembly on a project with 5,000 tables, 300 skills and a 200 KB RULES.md, judged
// against reading every file of that project once (read-every-file/large). Warm means what a chat turn
// sees: the same snapshot, so assembly may serve it from its cache; system-prompt/large-uncached renders a
// deep copy of the snapshot each time, which no cache recognises, for an honest view of the rendering cost.
// watch/change-to-prompt: from writing RULES.md in the watched large project to the next assembled prompt
// that contains the change (debounce included).
// Cold and changed paths, so a cache cannot hide a slow one (issue #17):
// - project/open-to-first-prompt: opening the project (walk, the files the prompt needs, watcher started) to
//   the first system prompt's text, each sample in a fresh process (section token counts are taken when first
//   read; project/open-to-first-counted-prompt goes on until every section's count is read, BPE over the
//   200 KB RULES.md with cold tables included); judged against the floor,
//   walk-and-read-every-file/large (list the folder and read every file once), sampled alternately with it in
//   this process (warm: a fresh process reads 80 MB slower, which would flatter the ratio).
// - system-prompt/large-after-rules-edit: the first prompt after one line of the 200 KB RULES.md changed (the
//   watcher's new snapshot; a different line each time, so no earlier count or render matches), its section
//   counts read.
// - system-prompt/large-after-memory-change: the first prompt after the memories changed (same snapshot, a
//   new memory each time), as after every answer.

const CHANGE_TIMEOUT_MS = 30_000

export async function* figures(): AsyncGenerator<Figure> {
  const temp = makeTempDir('glassbox-bench-project-')
  try {
    const root = join(temp.dir, 'large')
    makeLargeProject(root)
    const project = await loadProject(root)
    const files = project.files.map((file) => join(project.root, file))
    const floor = await measure('read-every-file/large', () => files.forEach((file) => readFileSync(file)), { n: 5, warmup: 1 })
    yield floor
    // Not a named figure of the spec: what opening the project costs before the first prompt (walk + parse).
    yield withFloor(await measure('project/load-large', () => loadProject(root), { n: 5, warmup: 1 }), floor)
    yield withFloor(await measure('system-prompt/large', () => assemble(project), { n: 50, warmup: 3 }), floor)
    // Deep copies made ahead of time: no cache keyed by object can recognise them, and copying is not timed.
    const copies = Array.from({ length: 12 }, () => structuredClone(project))
    const uncached = () => assemble(copies.pop() ?? structuredClone(project))
    yield withFloor(await measure('system-prompt/large-uncached', uncached, { n: 10, warmup: 2 }), floor)
    yield await changeToPrompt(root)
    yield* await changedPaths(root, floor)
    yield* await openToFirstPrompt(root)
  } finally {
    temp.cleanup()
  }
}

/** The prompt's text, with every section's token count read (counts are taken on demand), as the inspector shows it. */
function assemble(project: ProjectSnapshot, memories: MemoryItem[] = []): string {
  const prompt = assembleSystemPrompt({
    project,
    memory: { included: memories, droppedCount: 0 },
    now: new Date(),
    timezone: 'UTC',
    testMode: false,
    tools: createAgentTools().map((tool) => tool.name)
  })
  if (prompt.sections.reduce((sum, section) => sum + section.tokens, 0) <= 0) throw new Error('a prompt without tokens')
  return prompt.text
}

async function changeToPrompt(root: string): Promise<Figure> {
  const model = await openProject(root)
  // Steady state: changes made during the watcher's initial scan wait for the rescan that ends it.
  await model.whenWatching()
  const rulesPath = join(root, 'RULES.md')
  const rules = readFileSync(rulesPath, 'utf8')
  let round = 0
  try {
    return await measure(
      'watch/change-to-prompt',
      async () => {
        const marker = `Change number ${++round}: report amounts in dollars.`
        const seen = new Promise<void>((resolve, reject) => {
          const timeout = setTimeout(() => reject(new Error(`no prompt with change ${round} after ${CHANGE_TIMEOUT_MS} ms`)), CHANGE_TIMEOUT_MS)
          const stop = model.onChange((snapshot) => {
            if (!assemble(snapshot).includes(marker)) return
            clearTimeout(timeout)
            stop()
            resolve()
          })
        })
        writeFileSync(rulesPath, `${marker}\n${rules}`)
        await seen
      },
      { n: 10, warmup: 1 }
    )
  } finally {
    await model.close()
  }
}

const run = promisify(execFile)
const CHILD = join(import.meta.dirname, 'open-to-first-prompt.child.ts')

/** The floor: list the folder and read every file once, as directly as Node can. */
function walkAndReadEveryFile(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) walkAndReadEveryFile(path)
    else if (entry.isFile()) readFileSync(path)
  }
}

async function openToFirstPrompt(root: string): Promise<Figure[]> {
  const floorSamples: number[] = []
  const samples: number[] = []
  const countedSamples: number[] = []
  walkAndReadEveryFile(root)
  // Alternating samples: a busy neighbour slows both, not one.
  for (let index = 0; index < 7; index++) {
    const start = performance.now()
    walkAndReadEveryFile(root)
    floorSamples.push(performance.now() - start)
    const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, root], {
      cwd: REPO_ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(REPO_ROOT, 'tsconfig.node.json') }
    })
    const sample = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { ms: number; countedMs: number }
    samples.push(sample.ms)
    countedSamples.push(sample.countedMs)
  }
  const floor = summarise('walk-and-read-every-file/large', floorSamples)
  return [
    floor,
    withFloor(summarise('project/open-to-first-prompt', samples), floor),
    withFloor(summarise('project/open-to-first-counted-prompt', countedSamples), floor)
  ]
}

async function changedPaths(root: string, floor: Figure): Promise<Figure[]> {
  const model = await openProject(root)
  await model.whenWatching()
  const rulesPath = join(root, 'RULES.md')
  const rules = readFileSync(rulesPath, 'utf8')
  const middle = rules.indexOf('\n\n', rules.length / 2) + 2
  try {
    assemble(model.snapshot())
    const edits: number[] = []
    for (let round = 0; round < 23; round++) {
      const marker = `Edit ${round}: amounts of segment ${round} are in dollars.`
      const next = new Promise<ProjectSnapshot>((resolve) => {
        const stop = model.onChange((snapshot) => {
          if (snapshot.rules?.text.includes(marker)) {
            stop()
            resolve(snapshot)
          }
        })
      })
      writeFileSync(rulesPath, `${rules.slice(0, middle)}${marker}\n\n${rules.slice(middle)}`)
      const snapshot = await next
      const start = performance.now()
      const text = assemble(snapshot)
      if (round >= 3) edits.push(performance.now() - start)
      if (!text.includes(marker)) throw new Error('the edited rule is not in the prompt')
    }
    const project = model.snapshot()
    let memoryRound = 0
    const memoryChange = () => {
      memoryRound++
      const memories: MemoryItem[] = [
        { id: memoryRound, category: 'global_rule', content: `Always show revenue in EUR (${memoryRound}).`, tokens: 9, chatId: null, createdAt: '2026-11-01T10:00:00.000Z' },
        { id: 100_000 + memoryRound, category: 'personal_fact', content: 'The user is on the growth team.', tokens: 8, chatId: null, createdAt: '2026-11-02T10:00:00.000Z' }
      ]
      return assemble(project, memories)
    }
    return [
      withFloor(summarise('system-prompt/large-after-rules-edit', edits), floor),
      withFloor(await measure('system-prompt/large-after-memory-change', memoryChange, { n: 200, warmup: 5 }), floor)
    ]
  } finally {
    writeFileSync(rulesPath, rules)
    await model.close()
  }
}
