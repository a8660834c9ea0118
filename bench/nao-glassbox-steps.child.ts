import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openProject, type WatchedProjectModel } from '../src/main/project/watch'
import type { ProjectSnapshot } from '../src/main/project/types'
import { chatTurnPrompt } from './chat-turn-prompt'

// Glassbox's side of the in-process steps of bench/nao.bench.ts, the same steps as nao-renderer.child.mjs
// `steps`, in a fresh process: `WARM_DIR DIR ROUNDS SETTLE_MS`. Opens WARM_DIR and renders its prompt (the
// code warmed up), then times opening DIR to its first prompt text, a prompt with nothing changed (per
// message), and a prompt right after a RULES.md line changed and after a new skill file. Every prompt is asked
// for as a message or a preview asks (freshSnapshot: the check for changed prompt files included, a changed
// file read at once, no debounce wait). Prompt text only, as nao has no token counts. The first two rounds of
// each kind are warm-up; before each round it pauses SETTLE_MS, which lets the watcher's report of the last
// change through, so it does not land inside the next sample. Restores RULES.md, removes the skill files it
// wrote, prints the samples as JSON.

const PER_MESSAGE_RUNS = 200
const WARMUP_ROUNDS = 2
/** How long the watcher must stay quiet before the project counts as fully listed. */
const QUIET_MS = 600
const TIMEOUT_MS = 30_000

function promptText(project: ProjectSnapshot): string {
  return chatTurnPrompt(project).text
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves once the watcher is up and the background listing has published everything (no change for a while). */
async function fullyListed(model: WatchedProjectModel): Promise<void> {
  await model.whenWatching()
  let lastChange = performance.now()
  const stop = model.onChange(() => (lastChange = performance.now()))
  const start = performance.now()
  try {
    while (performance.now() - lastChange < QUIET_MS) {
      if (performance.now() - start > TIMEOUT_MS) throw new Error(`the project kept changing for ${TIMEOUT_MS} ms after it opened`)
      await sleep(50)
    }
  } finally {
    stop()
  }
}

const [warmDir, root, roundsArg, settleArg] = process.argv.slice(2)
const rounds = Number(roundsArg)
const settleMs = Number(settleArg)
if (!Number.isInteger(rounds) || !Number.isInteger(settleMs)) throw new Error(`usage: WARM_DIR DIR ROUNDS SETTLE_MS (got ${process.argv.slice(2).join(' ')})`)

const warm = await openProject(warmDir)
promptText(await warm.freshSnapshot())
await warm.close()

const openStart = performance.now()
const model = await openProject(root)
const first = promptText(await model.freshSnapshot())
const openMs = performance.now() - openStart
if (!first.includes('## User Rules')) throw new Error(`Glassbox's first prompt of ${root} has no User Rules section`)

const rulesPath = join(root, 'RULES.md')
const rules = readFileSync(rulesPath, 'utf8')
const middle = rules.indexOf('\n\n', rules.length / 3) + 2
const skills = join(root, 'agent', 'skills')
const added: string[] = []
const perMessage: number[] = []
const rulesEdit: number[] = []
const newSkill: number[] = []
try {
  await fullyListed(model)
  for (let run = 0; run < PER_MESSAGE_RUNS + 5; run++) {
    const start = performance.now()
    promptText(await model.freshSnapshot())
    if (run >= 5) perMessage.push(performance.now() - start)
  }
  for (let round = 0; round < rounds + WARMUP_ROUNDS; round++) {
    await sleep(settleMs)
    const marker = `Edit ${round}: amounts of region ${round} are in yen.`
    const start = performance.now()
    writeFileSync(rulesPath, `${rules.slice(0, middle)}${marker}\n\n${rules.slice(middle)}`)
    const text = promptText(await model.freshSnapshot())
    if (round >= WARMUP_ROUNDS) rulesEdit.push(performance.now() - start)
    if (!text.includes(marker)) throw new Error('the edited rule is not in the prompt Glassbox gave right after the edit')
  }
  mkdirSync(skills, { recursive: true })
  for (let round = 0; round < rounds + WARMUP_ROUNDS; round++) {
    await sleep(settleMs)
    const name = `new-skill-${round}`
    const path = join(skills, `${name}.md`)
    added.push(path)
    const start = performance.now()
    writeFileSync(path, `---\nname: ${name}\ndescription: How to answer a question nobody asked before (${round})\n---\nStep 1: look.\n`)
    const text = promptText(await model.freshSnapshot())
    if (round >= WARMUP_ROUNDS) newSkill.push(performance.now() - start)
    if (!text.includes(name)) throw new Error('the new skill is not in the prompt Glassbox gave right after it was written')
  }
} finally {
  writeFileSync(rulesPath, rules)
  for (const path of added) rmSync(path, { force: true })
  await model.close()
}
process.stdout.write(JSON.stringify({ openMs, perMessage, rulesEdit, newSkill }) + '\n')
