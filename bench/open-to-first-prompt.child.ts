import { join } from 'node:path'
import { openProject } from '../src/main/project/watch'
import { chatTurnPrompt, countAllSections } from './chat-turn-prompt'
import { readRulesAndSkillFrontMatter } from './read-rules-and-skills'
import { REPO_ROOT } from '../test/support/fixtures'

// One sample of project/open-to-first-prompt, in a process of its own so no cache of an earlier sample (token
// counts, parsed frontmatter, rendered sections) can help: the app has started and opened another project
// (the sample project, which warms the code up, its watcher up as it is long before a user opens another
// folder: otherwise its chokidar import lands inside the sample), then the user opens the large one. Prints
// the milliseconds from the open call to the first assembled system prompt, and to when all its section token
// counts are read. With `read` after the folder, one sample of its fresh-process floor instead: after the same
// warm-up, the milliseconds to read RULES.md and every skill's front matter once.

const [root, mode = 'open'] = process.argv.slice(2)
const warm = await openProject(join(REPO_ROOT, 'resources', 'sample-project'))
countAllSections(chatTurnPrompt(warm.snapshot()))
await warm.whenWatching()
await warm.close()

if (mode !== 'open' && mode !== 'read') throw new Error(`open-to-first-prompt.child.ts: unknown mode "${mode}" (open or read)`)
process.stdout.write(JSON.stringify(mode === 'read' ? readOnce() : await openToFirstPrompt()) + '\n')

function readOnce(): { ms: number } {
  const start = performance.now()
  readRulesAndSkillFrontMatter(root)
  return { ms: performance.now() - start }
}

async function openToFirstPrompt(): Promise<{ ms: number; countedMs: number }> {
  const start = performance.now()
  const model = await openProject(root)
  const prompt = chatTurnPrompt(model.snapshot())
  const ms = performance.now() - start
  const tokens = countAllSections(prompt)
  const countedMs = performance.now() - start
  await model.close()
  if (!prompt.text.includes('## User Rules')) throw new Error('the first prompt of the large project has no User Rules section')
  if (tokens < 40_000) throw new Error(`the first prompt of the large project counts only ${tokens} tokens`)
  return { ms, countedMs }
}
