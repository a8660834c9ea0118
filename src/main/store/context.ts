import { randomUUID } from 'node:crypto'
import type { Database, Statement } from 'better-sqlite3'
import { translateSqliteError } from './errors'

/** What every repository shares: the connection, its file (for error messages), a clock and cached statements. */
export class StoreContext {
  private readonly statements = new Map<string, Statement>()

  constructor(
    readonly db: Database,
    readonly file: string,
    private readonly clock: () => Date = () => new Date()
  ) {}

  /** Prepared once per connection and reused: preparing costs more than running most of these queries. */
  statement(sql: string): Statement {
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
    try {
      return this.db.transaction(work)()
    } catch (error) {
      throw translateSqliteError(error, this.file)
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
