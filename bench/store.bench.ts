import { selectStoredMemories } from '../src/main/memory/select'
import { seedMemories } from '../src/main/memory/seed-memories'
import { openStore, type Store } from '../src/main/store'
import { openTempStore } from '../src/main/store/test-store'
import { makeTempDir } from '../test/support/fixtures'
import { fillLargeStore, LARGE_STORE } from '../test/support/large-store'
import { measure, summarise, type Figure } from './harness'

// memory-select/100k: choosing the Memory section from 100,000 stored memories of one project, all selectable
// (the worst case: nothing filtered out before the budget walk), default 1000-token budget, inside a chat.
// store/insert-message: one chat turn's writes, a run record and its message, in one transaction.
// At scale (issue #17), on a store with 1,000,000 messages across 5,000 chats and 100,000 memories:
// store/open-1m: opening it as the app does (schema check, WAL) up to the first screen: the project's row, its
// chat list and the newest chat with its messages (closing is not timed); store/list-chats: the sidebar's chat list of that project (5,000 chats).
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
  yield* atScale()
}

const LARGE_ROOT = '/bench/large-project'

async function* atScale(): AsyncGenerator<Figure> {
  const temp = makeTempDir('glassbox-bench-store-')
  try {
    const filling = openStore(temp.dir)
    fillLargeStore(filling, LARGE_ROOT, LARGE_STORE)
    filling.close()
    const openToNewestChat = (): Store => {
      const store = openStore(temp.dir)
      const projectId = store.projects.ensure(LARGE_ROOT).id
      const [newest] = store.chats.list(projectId).slice(0, 1)
      if (!newest || store.chats.get(newest.id).messages.length === 0) throw new Error('the large store has no chat with messages')
      return store
    }
    const samples: number[] = []
    for (let round = 0; round < 22; round++) {
      const start = performance.now()
      const store = openToNewestChat()
      if (round >= 2) samples.push(performance.now() - start)
      store.close()
    }
    yield summarise('store/open-1m', samples)
    const store = openToNewestChat()
    try {
      const projectId = store.projects.ensure(LARGE_ROOT).id
      yield await measure('store/list-chats', () => store.chats.list(projectId), { n: 50, warmup: 3 })
    } finally {
      store.close()
    }
  } finally {
    temp.cleanup()
  }
}
