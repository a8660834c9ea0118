import { randomUUID } from 'node:crypto'
import type { Database, Statement } from 'better-sqlite3'
import { translateSqliteError } from './errors'
import { errorMessage } from '../../shared/error-message'

/** What every repository shares: the connection, its file (for error messages), a clock and cached statements. */
export class StoreContext {
  private readonly statements = new Map<string, Statement>()
  /** Whether a read transaction opened by readInBurst is open (committed a microtask later). */
  private burstOpen = false

  constructor(
    readonly db: Database,
    readonly file: string,
    private readonly clock: () => Date = () => new Date()
  ) {}

  /** Prepared once per connection and reused: preparing costs more than running most of these queries. */
  statement(sql: string): Statement {
    // Any other statement runs outside a burst's transaction, as it would without one.
    this.endBurst()
    return this.prepared(sql)
  }

  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql)
    if (!statement) {
      statement = this.db.prepare(sql)
      this.statements.set(sql, statement)
    }
    return statement
  }

  now(): string {
    return this.clock().toISOString()
  }

  newId(): string {
    return randomUUID()
  }

  /** Runs `work` atomically; SQLite failures come out as the store's named errors. */
  write<T>(work: () => T): T {
    this.endBurst()
    try {
      return this.db.transaction(work)()
    } catch (error) {
      throw translateSqliteError(error, this.file)
    }
  }

  /**
   * Runs `sql` as a read inside one transaction shared by every such read of the current synchronous run, which
   * is committed a microtask later (or before the next other statement or write). In WAL mode a statement on its
   * own takes and drops a read lock, two fcntl calls: `glassbox prompt` on a large project looks up 377 token
   * counts, 3.7–5.1 ms one by one, 1.4–2.3 ms in one transaction. Only for reads that no write of this run waits
   * for (a count kept by content key). Inside a transaction already open it simply runs.
   */
  readInBurst<T>(sql: string, run: (statement: Statement) => T): T {
    try {
      if (!this.burstOpen && !this.db.inTransaction) {
        this.db.exec('BEGIN')
        this.burstOpen = true
        queueMicrotask(() => this.endBurst())
      }
      return run(this.prepared(sql))
    } catch (error) {
      throw translateSqliteError(error, this.file)
    }
  }

  /** Commits the burst's read transaction, if one is open (before the connection closes, too). */
  endBurst(): void {
    if (!this.burstOpen) return
    this.burstOpen = false
    if (!this.db.open || !this.db.inTransaction) return
    try {
      this.db.exec('COMMIT')
    } catch (error) {
      // Only reads ran in it, so rolling back loses nothing. This may run in a microtask, where a throw would end
      // the process: a connection too broken to roll back says so at its next statement.
      console.error(`[store] a read transaction could not be committed: ${errorMessage(error)}`)
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK')
      } catch {
        // See above.
      }
    }
  }

  /** Runs a read; SQLite failures come out as the store's named errors. */
  read<T>(work: () => T): T {
    try {
      return work()
    } catch (error) {
      throw translateSqliteError(error, this.file)
    }
  }
}
