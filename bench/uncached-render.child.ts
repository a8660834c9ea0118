import { join } from 'node:path'
import { loadProject } from '../src/main/project/load'
import { chatTurnPrompt, countAllSections } from './chat-turn-prompt'
import type { ProjectSnapshot } from '../src/main/project/types'
import { REPO_ROOT } from '../test/support/fixtures'

// One sample of system-prompt/large-uncached, in a process of its own so that no cache can serve any part of
// it (the assembled prompt, rendered sections and rule blocks, token counts — all live in the process): the
// code is warmed on another project first (the sample project), then the large project, loaded beforehand,
// is rendered and every section's token count read. Prints the milliseconds of that render.

function renderCounted(project: ProjectSnapshot): string {
  const prompt = chatTurnPrompt(project)
  if (countAllSections(prompt) <= 0) throw new Error('a prompt without tokens')
  return prompt.text
}

renderCounted(await loadProject(join(REPO_ROOT, 'resources', 'sample-project')))
const large = await loadProject(process.argv[2])
const start = performance.now()
const text = renderCounted(large)
const ms = performance.now() - start
if (!text.includes('## User Rules')) throw new Error('the large project rendered without its User Rules')
process.stdout.write(JSON.stringify({ ms }) + '\n')
