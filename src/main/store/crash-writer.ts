import { openStore } from './open-store'

// Child process for crash-safety.test.ts: writes chat turns (a run and its message, one transaction each) as
// fast as it can and prints each message id once its transaction has committed. The test SIGKILLs it mid-way.
// Bounded, so a test that forgets to kill it cannot leave it running.

const MAX_TURNS = 20_000
const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: crash-writer.ts DATA_DIR')

const store = openStore(dataDir)
const chat = store.chats.create(store.projects.ensure('/data/crash').id, { title: 'crash' })
const filler = 'x'.repeat(4000)
for (let turn = 0; turn < MAX_TURNS; turn++) {
  const id = store.transaction(() => {
    const run = store.runs.start({ chatId: chat.id, model: 'm', endpoint: 'e', testMode: false })
    return store.chats.addMessage({ chatId: chat.id, role: 'assistant', text: `${turn} ${filler}`, runId: run.id }).id
  })
  // Writes to a pipe are synchronous on Linux and macOS: once printed, the line is the parent's.
  process.stdout.write(id + '\n')
}
store.close()
