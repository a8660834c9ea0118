import type { MemoryItem } from '../src/shared/prompt'
import { loadProject } from '../src/main/project/load'
import { NAO_LAYOUT } from '../test/support/fixtures'
import { chatTurnPrompt } from './chat-turn-prompt'
import { measure, type Figure } from './harness'

// system-prompt/nao-example-warm: per message, nothing changed — the nao-layout fixture's system prompt assembled
// as a chat turn does it, served from the cache: same project snapshot, the clock moving on, a couple of memories.

const MEMORIES: MemoryItem[] = [
  { id: 1, category: 'global_rule', content: 'Always show revenue in EUR.', tokens: 7, chatId: null, createdAt: '2026-11-01T10:00:00.000Z' },
  { id: 2, category: 'personal_fact', content: 'The user is on the growth team.', tokens: 8, chatId: null, createdAt: '2026-11-02T10:00:00.000Z' }
]

export async function* figures(): AsyncGenerator<Figure> {
  const project = await loadProject(NAO_LAYOUT)
  const assemble = () => chatTurnPrompt(project, MEMORIES, 'Europe/Paris')
  yield await measure('system-prompt/nao-example-warm', assemble, { n: 2000, warmup: 20 })
}
