import type { Database } from 'better-sqlite3'

// Signal Desktop's habit: one file per schema step, numbered in tens, a registry checked at startup, each step
// applied in its own transaction together with `PRAGMA user_version`, and a refusal to open a newer schema.

export interface Migration {
  /** Schema version after this step; steps are numbered 10, 20, 30, … */
  version: number
  /** Kebab-case description, the file name without the number. */
  name: string
  up(db: Database): void
}

/** Throws when versions do not strictly increase or are not positive integers: a programming error. */
export function checkRegistry(migrations: readonly Migration[]): void {
  let previous = 0
  for (const migration of migrations) {
    if (!Number.isInteger(migration.version) || migration.version <= previous) {
      throw new Error(
        `migration registry out of order: ${migration.version}-${migration.name} comes after version ${previous}`
      )
    }
    previous = migration.version
  }
}

export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1].version
}

export function readUserVersion(db: Database): number {
  const version: unknown = db.pragma('user_version', { simple: true })
  if (typeof version !== 'number') throw new Error(`PRAGMA user_version returned ${String(version)}`)
  return version
}

export interface MigrateOptions {
  /** Stop after this version (tests migrate to N−1, insert rows, then to N). */
  upTo?: number
}

/**
 * Applies every migration newer than the database's `user_version`, each atomically. Returns the versions
 * applied. The caller has already refused a database from the future (see openStore).
 */
export function migrate(db: Database, migrations: readonly Migration[], options: MigrateOptions = {}): number[] {
  checkRegistry(migrations)
  const applied: number[] = []
  // Steps the store already has are passed over on one read of its version, outside any transaction: an
  // up-to-date store (every start) takes no write lock, where each step's own transaction took it 16 times.
  const current = readUserVersion(db)
  for (const migration of migrations) {
    if (options.upTo !== undefined && migration.version > options.upTo) break
    if (migration.version <= current) continue
    // `immediate` takes the write lock before re-reading the version, so when two processes open an old
    // store at once the second one sees the first one's work and skips the step.
    const ran = db
      .transaction(() => {
        if (readUserVersion(db) >= migration.version) return false
        migration.up(db)
        db.pragma(`user_version = ${migration.version}`)
        return true
      })
      .immediate()
    if (ran) applied.push(migration.version)
  }
  return applied
}
