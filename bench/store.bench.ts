import { selectStoredMemories } from '../src/main/memory/select'
import { seedMemories } from '../src/main/memory/seed-memories'
import { openTempStore } from '../src/main/store/test-store'
import { measure, type Figure } from './harness'

// memory-select/100k: choosing the Memory section from 100,000 stored memories of one project, all selectable
// (the worst case: nothing filtered out before the budget walk), default 1000-token budget, inside a chat.
// store/insert-message: one chat turn's writes, a run record and its message, in one transaction.
export async function* figures(): AsyncGenerator<Figure> {
  const { store, cleanup } = openTempStore()
  try {
    const projectId = store.projects.ensure('/bench/project').id
    const chatIds = Array.from({ length: 20 }, () => store.chats.create(projectId).id)
    seedMemories(store, projectId, 100_000, { chatIds: [...chatIds, null] })
    store.db.exec('ANALYZE')
    yield await measure('memory-select/100k', () => selectStoredMemories(store, projectId, { currentChatId: chatIds[0] }), {
      n: 50
    })

    const chatId = chatIds[1]
    yield await measure(
      'store/insert-message',
      () =>
        store.transaction(() => {
          const run = store.runs.start({ chatId, model: 'qwen3:8b', endpoint: 'http://127.0.0.1:11434/v1', testMode: false })
          store.chats.addMessage({ chatId, role: 'assistant', text: 'Revenue grew 12% in Q3.', runId: run.id })
        }),
      { n: 500, warmup: 20 }
    )
  } finally {
    cleanup()
  }
}
