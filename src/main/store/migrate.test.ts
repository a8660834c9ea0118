import Database from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { checkRegistry, migrate, readUserVersion, type Migration } from './migrate'
import { MIGRATIONS } from './migrations'

const step = (version: number, sql = `CREATE TABLE t${version} (x)`): Migration => ({
  version,
  name: `step-${version}`,
  up: (db) => db.exec(sql)
})

describe('migration registry', () => {
  it('accepts the real registry, numbered in tens (or fives, for a step slotted between two tens)', () => {
    expect(() => checkRegistry(MIGRATIONS)).not.toThrow()
    expect(MIGRATIONS.every((migration) => migration.version % 5 === 0)).toBe(true)
  })

  it('rejects versions that do not strictly increase', () => {
    expect(() => checkRegistry([step(10), step(10)])).toThrow(/out of order: 10-step-10 comes after version 10/)
    expect(() => checkRegistry([step(20), step(10)])).toThrow(/out of order/)
  })
})

describe('migrate', () => {
  it('applies each pending step once and records user_version', () => {
    const db = new Database(':memory:')
    expect(migrate(db, [step(10), step(20)])).toEqual([10, 20])
    expect(readUserVersion(db)).toBe(20)
    expect(migrate(db, [step(10), step(20), step(30)])).toEqual([30])
  })

  it('takes no write lock on a store that is up to date: another process writing does not hold it up', () => {
    const temp = makeTempDir()
    try {
      const file = join(temp.dir, 'store.sqlite')
      const db = new Database(file, { timeout: 0 })
      db.pragma('journal_mode = WAL')
      expect(migrate(db, [step(10), step(20)])).toEqual([10, 20])
      const writer = new Database(file, { timeout: 0 })
      writer.exec('BEGIN IMMEDIATE')
      try {
        expect(migrate(db, [step(10), step(20)])).toEqual([])
      } finally {
        writer.exec('ROLLBACK')
        writer.close()
        db.close()
      }
    } finally {
      temp.cleanup()
    }
  })

  it('stops at upTo', () => {
    const db = new Database(':memory:')
    expect(migrate(db, [step(10), step(20)], { upTo: 10 })).toEqual([10])
    expect(readUserVersion(db)).toBe(10)
  })

  it('rolls a failing step back entirely, version included', () => {
    const db = new Database(':memory:')
    const broken = step(20, `CREATE TABLE half (x); SELECT * FROM missing_table`)
    expect(() => migrate(db, [step(10), broken])).toThrow(/no such table: missing_table/)
    expect(readUserVersion(db)).toBe(10)
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'half'`).get()).toBeUndefined()
  })
})
