import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadProject } from '../src/main/project/load'
import type { ProjectSnapshot } from '../src/main/project/types'
import { openProject } from '../src/main/project/watch'
import { assembleSystemPrompt } from '../src/main/prompt/system/assemble'
import { DEFAULT_TOOL_NAMES } from '../src/main/prompt/system/tool-names'
import { makeTempDir } from '../test/support/fixtures'
import { makeLargeProject } from '../test/support/large-project'
import { measure, withFloor, type Figure } from './harness'

// system-prompt/large: warm assembly on a project with 5,000 tables, 300 skills and a 200 KB RULES.md, judged
// against reading every file of that project once (read-every-file/large). Warm means what a chat turn
// sees: the same snapshot, so assembly may serve it from its cache; system-prompt/large-uncached renders a
// deep copy of the snapshot each time, which no cache recognises, for an honest view of the rendering cost.
// watch/change-to-prompt: from writing RULES.md in the watched large project to the next assembled prompt
// that contains the change (debounce included).

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
  } finally {
    temp.cleanup()
  }
}

function assemble(project: ProjectSnapshot): string {
  return assembleSystemPrompt({
    project,
    memory: { included: [], droppedCount: 0 },
    now: new Date(),
    timezone: 'UTC',
    testMode: false,
    tools: [...DEFAULT_TOOL_NAMES]
  }).text
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
