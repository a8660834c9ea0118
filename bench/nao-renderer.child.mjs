import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

// nao's side of bench/nao.bench.ts, each run in a fresh plain-Node process. BUNDLE is nao's renderer as that
// bench bundles it: useProject(dir) sets the project folder nao's backend is started with, and
// renderSystemPrompt() is its `renderToMarkdown(SystemPrompt())`, which reads RULES.md and lists
// databases/type=*/database=* on every call. Modes:
// - `load BUNDLE`: imports the bundle; prints {"codeMs"}.
// - `prompt BUNDLE DIR`: imports it and prints DIR's system prompt (the parent times the whole process).
// - `steps BUNDLE WARM_DIR DIR ROUNDS SETTLE_MS`: renders WARM_DIR's prompt first (as Glassbox's side warms
//   its code on another project), then times DIR's first prompt, renders with nothing changed, and renders
//   right after a RULES.md line changed and after a new skill file (nao shows no skills: it just renders
//   again), each round after a pause of SETTLE_MS as Glassbox's side pauses. The first two rounds of each
//   kind are warm-up. Restores RULES.md and removes the skill files it wrote. Prints the samples as JSON.

const PER_MESSAGE_RUNS = 200
const WARMUP_ROUNDS = 2

const [mode, bundle, ...args] = process.argv.slice(2)
const loadStart = performance.now()
const nao = await import(pathToFileURL(bundle).href)
const codeMs = performance.now() - loadStart

if (mode === 'load') {
  process.stdout.write(JSON.stringify({ codeMs }) + '\n')
} else if (mode === 'prompt') {
  nao.useProject(args[0])
  process.stdout.write(nao.renderSystemPrompt() + '\n')
} else if (mode === 'steps') {
  if (!Number.isInteger(Number(args[2])) || !Number.isInteger(Number(args[3]))) throw new Error(`usage: steps BUNDLE WARM_DIR DIR ROUNDS SETTLE_MS (got ${args.join(' ')})`)
  process.stdout.write(JSON.stringify(await steps(args[0], args[1], Number(args[2]), Number(args[3]))) + '\n')
} else {
  throw new Error(`nao-renderer.child.mjs: unknown mode "${mode}" (load, prompt or steps)`)
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function timed(run) {
  const start = performance.now()
  const result = run()
  return { ms: performance.now() - start, result }
}

async function steps(warmDir, root, rounds, settleMs) {
  nao.useProject(warmDir)
  nao.renderSystemPrompt()
  const first = timed(() => {
    nao.useProject(root)
    return nao.renderSystemPrompt()
  })
  if (!first.result.includes('## User Rules')) throw new Error(`nao's first prompt of ${root} has no User Rules section`)
  const perMessage = []
  for (let run = 0; run < PER_MESSAGE_RUNS + 5; run++) {
    const { ms } = timed(() => nao.renderSystemPrompt())
    if (run >= 5) perMessage.push(ms)
  }
  const rulesPath = join(root, 'RULES.md')
  const rules = readFileSync(rulesPath, 'utf8')
  const middle = rules.indexOf('\n\n', rules.length / 3) + 2
  const skills = join(root, 'agent', 'skills')
  const added = []
  const rulesEdit = []
  const newSkill = []
  try {
    for (let round = 0; round < rounds + WARMUP_ROUNDS; round++) {
      await sleep(settleMs)
      const marker = `Edit ${round}: amounts of region ${round} are in yen.`
      const { ms, result } = timed(() => {
        writeFileSync(rulesPath, `${rules.slice(0, middle)}${marker}\n\n${rules.slice(middle)}`)
        return nao.renderSystemPrompt()
      })
      if (!result.includes(marker)) throw new Error('the edited rule is not in the prompt nao rendered right after the edit')
      if (round >= WARMUP_ROUNDS) rulesEdit.push(ms)
    }
    mkdirSync(skills, { recursive: true })
    for (let round = 0; round < rounds + WARMUP_ROUNDS; round++) {
      await sleep(settleMs)
      const name = `new-skill-${round}`
      const path = join(skills, `${name}.md`)
      added.push(path)
      const { ms } = timed(() => {
        writeFileSync(path, `---\nname: ${name}\ndescription: How to answer a question nobody asked before (${round})\n---\nStep 1: look.\n`)
        return nao.renderSystemPrompt()
      })
      if (round >= WARMUP_ROUNDS) newSkill.push(ms)
    }
  } finally {
    writeFileSync(rulesPath, rules)
    for (const path of added) rmSync(path, { force: true })
  }
  return { openMs: first.ms, perMessage, rulesEdit, newSkill }
}
