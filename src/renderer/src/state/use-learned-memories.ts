import { useEffect } from 'react'
import { useApp } from './app-state'
import { errorMessage } from '../../../shared/error-message'
import { forgetMemoryOutcome, recordMemoryOutcome } from './memory-outcomes'

// A memory learned in the background is announced quietly — "Learned: …" — with Undo, which deletes it.

export function useLearnedMemoryNotices(): void {
  const { api, onPush, notify, bumpRevision } = useApp()
  useEffect(
    () =>
      onPush((event) => {
        if (event.channel === 'memory-outcome') return recordMemoryOutcome(event.runId, event.outcome)
        if (event.channel !== 'memory-learned') return
        bumpRevision()
        for (const memory of event.memories) {
          notify('info', `Learned: ${memory.content}`, {
            label: 'Undo',
            run: () =>
              void api
                .deleteMemory({ id: memory.id })
                .then(() => (forgetMemoryOutcome(memory.id), bumpRevision()))
                .catch((error: unknown) => notify('error', `Could not forget it: ${errorMessage(error)}`))
          })
        }
      }),
    [api, onPush, notify, bumpRevision]
  )
}
