import type { TokenCountMemory } from '../prompt/tokens'
import type { StoreContext } from './context'
import { numberIn } from './row'

/** Past this many rows the oldest counts are dropped (a row is ~60 bytes). */
const MAX_ROWS = 100_000
/** New counts are written in one transaction once this many wait, and when the store closes. */
const WRITE_EVERY = 256

/** Token counts by content key, shared by every process using the store (see tokens.ts). */
export class TokenCountsRepo implements TokenCountMemory {
  private readonly unsaved = new Map<string, number>()

  constructor(
    private readonly context: StoreContext,
    private readonly writable: boolean
  ) {}

  get(key: string): number | undefined {
    const waiting = this.unsaved.get(key)
    if (waiting !== undefined) return waiting
    // The count alone (pluck), not a row object per look-up, and in one read transaction with the other
    // look-ups of the same run: a large project's prompt asks ~400 times.
    const value: unknown = this.context.readInBurst(`SELECT tokens FROM token_counts WHERE key = ?`, (statement) => statement.pluck().get(key))
    return value === undefined ? undefined : numberIn(value, 'tokens')
  }

  remember(key: string, tokens: number): void {
    if (!this.writable) return
    this.unsaved.set(key, tokens)
    if (this.unsaved.size >= WRITE_EVERY) this.save()
  }

  /** Writes the counts not written yet. */
  save(): void {
    if (this.unsaved.size === 0) return
    const counts = [...this.unsaved]
    this.unsaved.clear()
    this.context.write(() => {
      const insert = this.context.statement(`INSERT INTO token_counts (key, tokens) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`)
      for (const [key, tokens] of counts) insert.run(key, tokens)
      this.context.statement(`DELETE FROM token_counts WHERE rowid <= (SELECT MAX(rowid) FROM token_counts) - ?`).run(MAX_ROWS)
    })
  }
}
