import { afterEach, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { openStore } from './open-store'

const cleanups: Array<() => void> = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function tempDir(): string {
  const temp = makeTempDir()
  cleanups.push(temp.cleanup)
  return temp.dir
}

it('keeps counts for the next process that opens the store, once saved or closed', () => {
  const dir = tempDir()
  const first = openStore(dir)
  first.tokenCounts.remember('o200k:a', 12)
  expect(first.tokenCounts.get('o200k:a')).toBe(12)
  first.close()
  const second = openStore(dir)
  expect(second.tokenCounts.get('o200k:a')).toBe(12)
  expect(second.tokenCounts.get('o200k:b')).toBeUndefined()
  second.close()
})

it('writes nothing through a read-only store', () => {
  const dir = tempDir()
  openStore(dir).close()
  const readonly = openStore(dir, { readonly: true })
  readonly.tokenCounts.remember('o200k:a', 12)
  expect(readonly.tokenCounts.get('o200k:a')).toBeUndefined()
  readonly.close()
  const writable = openStore(dir)
  expect(writable.tokenCounts.get('o200k:a')).toBeUndefined()
  writable.close()
})

it('keeps the first count for a key (counts are of content, so a second one is the same)', () => {
  const dir = tempDir()
  const store = openStore(dir)
  store.tokenCounts.remember('o200k:a', 12)
  store.tokenCounts.save()
  store.tokenCounts.remember('o200k:a', 12)
  store.tokenCounts.save()
  expect(store.db.prepare(`SELECT COUNT(*) AS n FROM token_counts`).get()).toEqual({ n: 1 })
  store.close()
})

it('looks counts up in one read transaction per synchronous run, committed a microtask later', async () => {
  const store = openStore(tempDir())
  store.tokenCounts.remember('o200k:a', 12)
  store.tokenCounts.save()
  expect(store.tokenCounts.get('o200k:a')).toBe(12)
  expect(store.db.inTransaction).toBe(true)
  expect(store.tokenCounts.get('o200k:b')).toBeUndefined()
  await Promise.resolve()
  expect(store.db.inTransaction).toBe(false)
  store.close()
})

it('commits a write that follows look-ups of the same run at once, and closes with look-ups open', () => {
  const dir = tempDir()
  const store = openStore(dir)
  const other = openStore(dir)
  expect(store.tokenCounts.get('o200k:a')).toBeUndefined()
  store.tokenCounts.remember('o200k:a', 12)
  store.tokenCounts.save()
  expect(store.db.inTransaction).toBe(false)
  expect(other.tokenCounts.get('o200k:a')).toBe(12)
  expect(store.tokenCounts.get('o200k:a')).toBe(12)
  store.settings.update(null, { timezone: 'Europe/Paris' })
  expect(store.db.inTransaction).toBe(false)
  expect(other.settings.read(null).timezone).toBe('Europe/Paris')
  other.close()
  store.close()
})

it('sees counts another process saved once the run that looked them up is over', async () => {
  const dir = tempDir()
  const reader = openStore(dir)
  const writer = openStore(dir)
  expect(reader.tokenCounts.get('o200k:a')).toBeUndefined()
  writer.tokenCounts.remember('o200k:a', 12)
  writer.tokenCounts.save()
  await Promise.resolve()
  expect(reader.tokenCounts.get('o200k:a')).toBe(12)
  writer.close()
  reader.close()
})
