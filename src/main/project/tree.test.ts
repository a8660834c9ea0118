import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { forEachEntrySliced, refreshPaths, walkProject, type ProjectTree } from './tree'

let temp: { dir: string; cleanup: () => void }
let root: string

beforeEach(() => {
  temp = makeTempDir()
  root = join(temp.dir, 'project')
  mkdirSync(join(root, 'docs', 'deep'), { recursive: true })
  mkdirSync(join(root, 'node_modules', 'x'), { recursive: true })
  writeFileSync(join(root, 'docs', 'deep', 'a.md'), 'a')
  writeFileSync(join(root, 'RULES.md'), 'r')
  writeFileSync(join(temp.dir, 'outside.md'), 'o')
})
afterEach(() => temp.cleanup())

describe('walkProject', () => {
  it('lists files and folders, skips node_modules, and classifies symlinks', async () => {
    symlinkSync(join(temp.dir, 'outside.md'), join(root, 'out.md'))
    symlinkSync(join(root, 'RULES.md'), join(root, 'in.md'))
    symlinkSync(join(root, 'nothing'), join(root, 'broken.md'))
    symlinkSync(join(root, 'docs'), join(root, 'docs-link'))
    const tree = await walkProject(root)
    expect(Object.fromEntries([...tree].sort(([a], [b]) => (a < b ? -1 : 1)))).toEqual({
      'RULES.md': { kind: 'file' },
      'broken.md': { kind: 'symlink', resolves: 'broken' },
      docs: { kind: 'dir' },
      'docs-link': { kind: 'symlink', resolves: 'dir' },
      'docs/deep': { kind: 'dir' },
      'docs/deep/a.md': { kind: 'file' },
      'in.md': { kind: 'symlink', resolves: 'file' },
      'out.md': { kind: 'symlink', resolves: 'outside' }
    })
  })
})

describe('refreshPaths', () => {
  it('patches the tree to match a fresh walk after adds, removals and folder moves', async () => {
    const tree = await walkProject(root)
    mkdirSync(join(root, 'docs', 'new', 'sub'), { recursive: true })
    writeFileSync(join(root, 'docs', 'new', 'sub', 'b.md'), 'b')
    rmSync(join(root, 'docs', 'deep'), { recursive: true })
    writeFileSync(join(root, 'RULES.md'), 'changed')
    await refreshPaths(root, tree, ['docs/new', 'docs/new/sub', 'docs/new/sub/b.md', 'docs/deep', 'docs/deep/a.md', 'RULES.md'])
    expect(tree).toEqual(await walkProject(root))
  })
})

describe('forEachEntrySliced', () => {
  it('visits every entry in order, letting the event loop run where the slicer pauses', async () => {
    const tree: ProjectTree = new Map(Array.from({ length: 1000 }, (_, index) => [`docs/note-${index}.md`, { kind: 'file' } as const]))
    const visited: string[] = []
    const turns: number[] = []
    // A slicer whose slice is always used up: every look at the clock pauses for a turn of the event loop.
    const pauseEveryTime = () => new Promise<void>((resolve) => setImmediate(resolve))
    // Another callback of the event loop, once per turn: a timer instead (1 ms at the least) saw no turn at all
    // when the whole walk took less than that.
    let watching = true
    const watch = () => {
      turns.push(visited.length)
      if (watching) setImmediate(watch)
    }
    setImmediate(watch)
    try {
      await forEachEntrySliced(tree, pauseEveryTime, (path) => visited.push(path))
    } finally {
      watching = false
    }
    expect(visited).toEqual([...tree.keys()])
    // Other callbacks ran between entries, not only before the first or after the last.
    expect(turns.some((count) => count > 0 && count < tree.size)).toBe(true)
  })
})
