import { useSyncExternalStore } from 'react'
import type { MemoryOutcome } from '../../../shared/api'

// How learning memories from each answer ended (saved, nothing to remember, failed and why), by the run
// that wrote the answer, so the answer can say it. Kept for this window's life: it describes what just happened.

const outcomes = new Map<string, MemoryOutcome>()
const listeners = new Set<() => void>()

export function recordMemoryOutcome(runId: string, outcome: MemoryOutcome): void {
  outcomes.set(runId, outcome)
  for (const listener of listeners) listener()
}

/** Undo of a saved memory (under the answer or in its notice): the answer no longer says it was remembered. */
export function forgetMemoryOutcome(memoryId: number): void {
  for (const [runId, outcome] of outcomes) {
    if (outcome.status !== 'saved' || !outcome.memories.some((memory) => memory.id === memoryId)) continue
    const memories = outcome.memories.filter((memory) => memory.id !== memoryId)
    recordMemoryOutcome(runId, memories.length > 0 ? { status: 'saved', memories } : { status: 'nothing' })
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useMemoryOutcome(runId: string | undefined): MemoryOutcome | undefined {
  return useSyncExternalStore(subscribe, () => (runId ? outcomes.get(runId) : undefined))
}
