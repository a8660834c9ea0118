import type { StoreContext } from './context'
import { integer, toRow } from './row'

export interface StoredTokenScale {
  scale: number
  observations: number
}

/** Learned factors on token estimates, per server and model (see TokenCalibration). */
export class TokenScalesRepo {
  constructor(private readonly context: StoreContext) {}

  get(endpoint: string, model: string): StoredTokenScale | null {
    const value = this.context.read(() =>
      this.context.statement(`SELECT scale, observations FROM token_scales WHERE endpoint = ? AND model = ?`).get(endpoint, model)
    )
    if (value === undefined) return null
    const row = toRow(value)
    return typeof row.scale === 'number' ? { scale: row.scale, observations: integer(row, 'observations') } : null
  }

  set(endpoint: string, model: string, entry: StoredTokenScale): void {
    this.context.write(() =>
      this.context
        .statement(
          `INSERT INTO token_scales (endpoint, model, scale, observations, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (endpoint, model) DO UPDATE SET scale = excluded.scale, observations = excluded.observations, updated_at = excluded.updated_at`
        )
        .run(endpoint, model, entry.scale, entry.observations, this.context.now())
    )
  }
}
