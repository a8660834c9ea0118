import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../../test/support/fixtures'
import { loadProject } from '../../project/load'
import type { ProjectSnapshot } from '../../project/types'
import type { ToolLimits } from './create-tool'
import type { GrepResult } from './grep'
import { grepTool } from './grep'
import type { SearchResult } from './search'
import { searchTool } from './search'
import { makeToolContext } from './tool-context.testing'

// #11 B3 and #17.4: pattern search is bounded in time and never blocks the main thread. These run the real
// attack: a regex that backtracks exponentially, on the real tool, while a timer checks the event loop.

/** Runs `work` while a 10 ms timer measures the longest the event loop was kept from running it. */
async function withLoopWatch<T>(work: () => Promise<T>): Promise<{ value: T; longestStallMs: number; elapsedMs: number }> {
  let last = Date.now()
  let longestStallMs = 0
  const timer = setInterval(() => {
    const now = Date.now()
    longestStallMs = Math.max(longestStallMs, now - last)
    last = now
  }, 10)
  const started = Date.now()
  try {
    const value = await work()
    return { value, longestStallMs, elapsedMs: Date.now() - started }
  } finally {
    clearInterval(timer)
  }
}

describe('grep with a catastrophic regular expression (#11 B3)', () => {
  let temp: ReturnType<typeof makeTempDir>
  beforeEach(() => {
    temp = makeTempDir('glassbox-redos-')
    mkdirSync(join(temp.dir, 'docs'))
    writeFileSync(join(temp.dir, 'docs', 'a.md'), 'first line\n' + 'a'.repeat(40) + '!\nlast line\n')
    writeFileSync(join(temp.dir, 'docs', 'b.md'), 'nothing here\n')
  })
  afterEach(() => temp.cleanup())

  it('stops ^(a+)+$ on 40 a\'s and a "!" within its budget, says the pattern is too costly, and the loop keeps running', async () => {
    const ctx = await makeToolContext(temp.dir, { limits: { searchTimeMs: 1_500 } })
    try {
      const { value: invocation, longestStallMs, elapsedMs } = await withLoopWatch(() => grepTool.invoke({ pattern: '^(a+)+$' }, ctx))
      // Unbounded, this line alone takes minutes (each extra "a" doubles it).
      expect(elapsedMs).toBeLessThan(5_000)
      expect(longestStallMs).toBeLessThan(500)
      expect(invocation.ok).toBe(true)
      expect(invocation.output).toMatch(/too costly/)
      expect(invocation.output).toContain('docs/a.md')
      const data = invocation.data as GrepResult
      expect(data.stopped).toMatchObject({ reason: 'too-costly', file: 'docs/a.md' })
    } finally {
      ctx.close()
    }
  })

  it('stops at once when the run is cancelled', async () => {
    const controller = new AbortController()
    const ctx = await makeToolContext(temp.dir, { signal: controller.signal, limits: { searchTimeMs: 60_000 } })
    try {
      setTimeout(() => controller.abort(), 200)
      const { value: invocation, elapsedMs } = await withLoopWatch(() => grepTool.invoke({ pattern: '^(a+)+$' }, ctx))
      expect(elapsedMs).toBeLessThan(3_000)
      expect((invocation.data as GrepResult).stopped).toEqual({ reason: 'cancelled' })
    } finally {
      ctx.close()
    }
  })

  it('still finds ordinary matches, and an invalid pattern is a tool error', async () => {
    const ctx = await makeToolContext(temp.dir)
    try {
      const found = await grepTool.invoke({ pattern: 'a{30}!' }, ctx)
      expect(found.output).toBe('docs/a.md:2: ' + 'a'.repeat(40) + '!')
      expect((found.data as GrepResult).stopped).toBeNull()
      const invalid = await grepTool.invoke({ pattern: '(a' }, ctx)
      expect(invalid.ok).toBe(false)
      expect(invalid.output).toMatch(/Invalid regular expression/)
    } finally {
      ctx.close()
    }
  })
})

describe('grep and search over a many-file tree (#17.4)', () => {
  const FILES = 3_000
  let temp: ReturnType<typeof makeTempDir>
  let project: ProjectSnapshot
  const context = (limits: Partial<ToolLimits> = {}) => makeToolContext(temp.dir, { project, limits })
  beforeAll(async () => {
    temp = makeTempDir('glassbox-many-')
    for (let folder = 0; folder < FILES / 100; folder++) {
      const dir = join(temp.dir, 'docs', `part${folder}`)
      mkdirSync(dir, { recursive: true })
      for (let file = 0; file < 100; file++) writeFileSync(join(dir, `note${file}.md`), `title ${folder}-${file}\nneedle here\nend\n${'x'.repeat(18)}\n`)
    }
    // Binary content is skipped, even when the bytes would match.
    writeFileSync(join(temp.dir, 'docs', 'blob.md'), Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2, 0])]))
    project = await loadProject(temp.dir)
  })
  afterAll(() => temp.cleanup())

  it('stops opening files at max_results and says so', async () => {
    const ctx = await context()
    try {
      const invocation = await grepTool.invoke({ pattern: 'needle', max_results: 5 }, ctx)
      const data = invocation.data as GrepResult
      expect(data.matches).toHaveLength(5)
      expect(data.stopped).toEqual({ reason: 'max-results' })
      expect(data.filesSearched).toBeLessThan(FILES / 10)
      expect(data.filesInScope).toBe(FILES + 1)
      expect(invocation.output).toMatch(/stopped at max_results after \d+ of 3001 files; narrow the path/)
    } finally {
      ctx.close()
    }
  })

  it('stops at the time budget with "stopped after … narrow the path", keeping what it found', async () => {
    // Each file costs the pattern about a millisecond (a short exponential alternative on its line of x's), so
    // the tree takes seconds on any machine while no single file comes near the budget.
    const ctx = await context({ searchTimeMs: 300, maxGrepResults: 100_000 })
    try {
      const { value: invocation, longestStallMs, elapsedMs } = await withLoopWatch(() =>
        grepTool.invoke({ pattern: 'needle|(x+x+)+y', max_results: 100_000 }, ctx)
      )
      const data = invocation.data as GrepResult
      expect(elapsedMs).toBeLessThan(2_000)
      expect(longestStallMs).toBeLessThan(500)
      expect(data.stopped).toMatchObject({ reason: 'time' })
      expect(data.filesSearched).toBeLessThan(FILES)
      expect(data.matches.length).toBe(data.filesSearched)
      expect(invocation.output).toMatch(/stopped after [\d.]+ s \(time limit\) having searched \d+ of 3001 files; narrow the path or glob\./)
    } finally {
      ctx.close()
    }
  })

  it('skips binary files', async () => {
    const ctx = await context()
    try {
      const data = (await grepTool.invoke({ pattern: 'needle', path: 'docs/blob.md' }, ctx)).data as GrepResult
      expect(data.matches).toEqual([])
      expect(data.skipped).toEqual(['docs/blob.md'])
    } finally {
      ctx.close()
    }
  })

  it('search lists the matching paths, and stops at its time budget saying how far it got', async () => {
    const ctx = await context()
    try {
      const all = (await searchTool.invoke({ pattern: 'docs/part3/*.md' }, ctx)).data as SearchResult
      expect(all.matches).toHaveLength(100)
      expect(all.stoppedAfterSeconds).toBeNull()
    } finally {
      ctx.close()
    }
    const hurried = await context({ searchTimeMs: 0 })
    try {
      const invocation = await searchTool.invoke({ pattern: '**/note1*.md' }, hurried)
      expect((invocation.data as SearchResult).stoppedAfterSeconds).not.toBeNull()
      expect(invocation.output).toMatch(/stopped after [\d.]+ s \(time limit\) having tested \d+ of 3001 paths; narrow the pattern\./)
    } finally {
      hurried.close()
    }
  })
})
