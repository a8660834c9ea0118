import { useEffect } from 'react'
import { useApp } from './app-state'
import { errorMessage } from '../../../shared/error-message'

// A memory learned in the background is announced quietly — "Learned: …" — with Undo, which deletes it.

export function useLearnedMemoryNotices(): void {
  const { api, onPush, notify, bumpRevision } = useApp()
  useEffect(
    () =>
      onPush((event) => {
        if (event.channel !== 'memory-learned') return
        bumpRevision()
        for (const memory of event.memories) {
          notify('info', `Learned: ${memory.content}`, {
            label: 'Undo',
            run: () =>
              void api
                .deleteMemory({ id: memory.id })
                .then(() => bumpRevision())
                .catch((error: unknown) => notify('error', `Could not forget it: ${errorMessage(error)}`))
          })
        }
      }),
    [api, onPush, notify, bumpRevision]
  )
}
