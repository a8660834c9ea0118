import { realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { ParsedFileCache } from './parse-cache'
import { FolderRealPaths } from './read-text'

describe('ParsedFileCache with a first read without a stat', () => {
  const cleanups: Array<() => void> = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup()
  })

  function countingCache(): { cache: ParsedFileCache<{ text: string }>; parses: () => number } {
    let parses = 0
    const cache = new ParsedFileCache((_path, text) => {
      parses++
      return { value: { text }, diagnostics: [] }
    })
    return { cache, parses: () => parses }
  }

  function projectWithRules(text: string): string {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const root = realpathSync(temp.dir)
    writeFileSync(join(root, 'RULES.md'), text)
    return root
  }

  it('takes the file for changed at the next check by stat, reads it again with a stat, and keeps what the same text parsed to', () => {
    const root = projectWithRules('In EUR.')
    const { cache, parses } = countingCache()
    // As every load of a build that may read without a stat asks.
    const load = () => cache.load(root, 'RULES.md', 1024, { folders: new FolderRealPaths(root), firstReadWithoutStat: true })
    const first = load().value
    expect(first).toEqual({ text: 'In EUR.' })
    expect(cache.changedOnDisk(root)).toEqual(['RULES.md'])
    expect(load().value).toBe(first)
    expect(cache.changedOnDisk(root)).toEqual([])
    expect(load().value).toBe(first)
    expect(parses()).toBe(1)
  })

  it('parses a file edited since it was read without a stat', () => {
    const root = projectWithRules('In EUR.')
    const { cache, parses } = countingCache()
    const load = () => cache.load(root, 'RULES.md', 1024, { folders: new FolderRealPaths(root), firstReadWithoutStat: true })
    load()
    writeFileSync(join(root, 'RULES.md'), 'In USD.')
    expect(load().value).toEqual({ text: 'In USD.' })
    expect(parses()).toBe(2)
    expect(load().value).toEqual({ text: 'In USD.' })
    expect(parses()).toBe(2)
  })
})
