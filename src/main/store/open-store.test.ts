import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import {
  StoreBusyError,
  StoreCorruptError,
  StoreFromTheFutureError,
  StoreReadOnlyError
} from './errors'
import { latestVersion } from './migrate'
import { MIGRATIONS } from './migrations'
import { openStore, STORE_FILE } from './open-store'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.()
})

function tempDir(): string {
  const temp = makeTempDir('glassbox-store-')
  cleanups.push(temp.cleanup)
  return temp.dir
}

function hash(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex')
}

const isRoot = process.getuid?.() === 0
// Root passes every permission check through two capabilities; without them it is held to the file modes like
// any owner, so as root the read-only checks run in a child that has given them up (and can never regain them).
const WITHOUT_PERMISSION_OVERRIDE = ['--inh-caps=-dac_override,-dac_read_search', '--bounding-set=-dac_override,-dac_read_search']

describe('openStore', () => {
  it('creates the folder and a WAL database with foreign keys, migrated to the latest version', () => {
    const dir = join(tempDir(), 'nested', 'data')
    const store = openStore(dir)
    expect(existsSync(join(dir, STORE_FILE))).toBe(true)
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(store.schemaVersion).toBe(latestVersion(MIGRATIONS))
    store.close()
  })

  it('reopens an existing store with its rows', () => {
    const dir = tempDir()
    const first = openStore(dir)
    const project = first.projects.ensure('/data/shop')
    const chat = first.chats.create(project.id, { title: 'Revenue' })
    first.close()
    const second = openStore(dir)
    expect(second.chats.list(project.id)).toEqual([chat])
    second.close()
  })

  it('refuses a store from a newer schema with a named error, leaving the file byte for byte', () => {
    const dir = tempDir()
    openStore(dir).close()
    const raw = new Database(join(dir, STORE_FILE))
    raw.pragma('user_version = 990')
    raw.close()
    const before = hash(join(dir, STORE_FILE))

    const opening = () => openStore(dir)
    expect(opening).toThrow(StoreFromTheFutureError)
    expect(opening).toThrow(
      `schema version 990, but this Glassbox only knows up to ${latestVersion(MIGRATIONS)}; it was left untouched`
    )
    expect(hash(join(dir, STORE_FILE))).toBe(before)
  })

  it('names a damaged file and leaves it as it was', () => {
    const dir = tempDir()
    const file = join(dir, STORE_FILE)
    writeFileSync(file, 'this is not a database\n'.repeat(200))
    const before = hash(file)
    expect(() => openStore(dir)).toThrow(StoreCorruptError)
    expect(() => openStore(dir)).toThrow(/is not a readable Glassbox database .* move it aside/)
    expect(hash(file)).toBe(before)
  })

  it('reports a store another connection holds an exclusive lock on, when it needs migrating', () => {
    const dir = tempDir()
    openStore(dir, { migrations: MIGRATIONS.slice(0, 1) }).close()
    const holder = new Database(join(dir, STORE_FILE))
    holder.exec('BEGIN EXCLUSIVE')
    try {
      expect(() => openStore(dir, { busyTimeoutMs: 50 })).toThrow(StoreBusyError)
      expect(() => openStore(dir, { busyTimeoutMs: 50 })).toThrow(/is locked by another process/)
    } finally {
      holder.exec('ROLLBACK')
      holder.close()
    }
    const store = openStore(dir)
    expect(store.schemaVersion).toBe(latestVersion(MIGRATIONS))
    store.close()
  })

  it('reports a write blocked by another connection’s exclusive transaction, and keeps earlier rows', () => {
    const dir = tempDir()
    const store = openStore(dir, { busyTimeoutMs: 50 })
    const project = store.projects.ensure('/data/shop')
    store.chats.create(project.id, { title: 'kept' })
    const holder = new Database(join(dir, STORE_FILE))
    holder.exec('BEGIN EXCLUSIVE')
    try {
      expect(() => store.chats.create(project.id, { title: 'blocked' })).toThrow(StoreBusyError)
    } finally {
      holder.exec('ROLLBACK')
      holder.close()
    }
    expect(store.chats.list(project.id).map((chat) => chat.title)).toEqual(['kept'])
    store.chats.create(project.id, { title: 'after' })
    expect(store.chats.list(project.id)).toHaveLength(2)
    store.close()
  })

  it('opened read-only, refuses writes with a named error', () => {
    const dir = tempDir()
    openStore(dir).close()
    const store = openStore(dir, { readonly: true })
    expect(() => store.projects.ensure('/data/shop')).toThrow(StoreReadOnlyError)
    expect(() => store.projects.ensure('/data/shop')).toThrow(/is read-only/)
    store.close()
  })

  it('opened read-only, refuses a store that needs migrating instead of half-opening it', () => {
    const dir = tempDir()
    openStore(dir, { migrations: MIGRATIONS.slice(0, 1) }).close()
    expect(() => openStore(dir, { readonly: true })).toThrow(StoreReadOnlyError)
  })

  // Root ignores file permissions, so this one runs only as an ordinary user; as root, the test below runs the
  // same checks without root's permission override.
  it.skipIf(isRoot)('reports a read-only file and folder with a named error', () => {
    const dir = tempDir()
    openStore(dir, { migrations: MIGRATIONS.slice(0, 1) }).close()
    chmodSync(join(dir, STORE_FILE), 0o444)
    chmodSync(dir, 0o555)
    cleanups.push(() => chmodSync(dir, 0o755))
    expect(() => openStore(dir)).toThrow(StoreReadOnlyError)
  })

  // Root may create a folder anywhere, so this too runs only as an ordinary user (a desktop, not CI as root).
  it.skipIf(isRoot)('reports a data folder that cannot be created', () => {
    const parent = tempDir()
    chmodSync(parent, 0o555)
    cleanups.push(() => chmodSync(parent, 0o755))
    expect(() => openStore(join(parent, 'data'))).toThrow(StoreReadOnlyError)
  })

  // As root, the same checks run in a child process that has dropped root's permission override.
  it.runIf(isRoot)('reports read-only files and folders with a named error (as root without the permission override)', () => {
    const output = execFileSync(
      'setpriv',
      [...WITHOUT_PERMISSION_OVERRIDE, process.execPath, '--import', 'tsx', join(import.meta.dirname, 'read-only-probe.ts')],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 20_000 }
    )
    const outcomes: unknown = JSON.parse(output)
    expect(outcomes).toEqual({
      needsMigration: expect.stringMatching(/^StoreReadOnlyError: .* is read-only/),
      current: expect.stringMatching(/^StoreReadOnlyError: .* is read-only/),
      cannotCreate: expect.stringMatching(/^StoreReadOnlyError: .* is read-only/)
    })
  })
})
