import picomatch from 'picomatch'
import * as z from '../../../shared/zod-mini'
import { createTool, ToolError } from './create-tool'
import { startPatternWorker, type PatternSource } from './pattern-worker'
import { cappedLines } from './project-files'
import { errorMessage } from '../../../shared/error-message'

export const searchInput = () =>
  z.object({
    pattern: z.string().check(z.minLength(1), z.maxLength(2_000), z.describe('Glob over project-relative paths, e.g. **/columns.md or docs/**/*.md'))
  })

export interface SearchResult {
  pattern: string
  matches: string[]
  /** Paths tested before the time limit (all of them unless `stoppedAfterSeconds` is set). */
  pathsSearched: number
  pathsTotal: number
  /** Set when the time limit ended the search early. */
  stoppedAfterSeconds: number | null
}

/** Paths go to the pattern worker in slices, so a time limit still leaves the matches found so far. */
const SLICE = 5_000

export const searchTool = createTool({
  name: 'search',
  description: 'Find project files whose path matches a glob pattern.',
  inputSchema: searchInput,
  async execute(input, ctx): Promise<SearchResult> {
    // A glob compiles to a regular expression, which can backtrack like any other: it runs in the worker too.
    let patterns: PatternSource[]
    try {
      patterns = [picomatch.makeRe(input.pattern, { dot: true })]
      // A bare name like "columns.md" also matches at any depth, as people expect from a search box.
      if (!input.pattern.includes('/')) patterns.push(picomatch.makeRe(`**/${input.pattern}`, { dot: true }))
    } catch (error) {
      throw new ToolError(`Invalid glob ${input.pattern}: ${errorMessage(error)}`)
    }
    const started = Date.now()
    const deadline = started + ctx.limits.searchTimeMs
    const files = ctx.project.files
    const result: SearchResult = { pattern: input.pattern, matches: [], pathsSearched: 0, pathsTotal: files.length, stoppedAfterSeconds: null }
    const worker = startPatternWorker(patterns.map((regex) => ({ source: regex.source, flags: regex.flags })))
    try {
      for (let start = 0; start < files.length; start += SLICE) {
        const slice = files.slice(start, start + SLICE)
        const outcome = await worker.run(slice, 'whole', deadline, ctx.signal)
        outcome.hits.forEach((hit, index) => {
          if (hit.length > 0) result.matches.push(slice[index])
        })
        result.pathsSearched += outcome.kind === 'done' ? slice.length : outcome.itemsDone
        if (outcome.kind === 'aborted') throw new ToolError('Search cancelled.')
        if (outcome.kind === 'deadline') {
          result.stoppedAfterSeconds = Math.round((Date.now() - started) / 100) / 10
          break
        }
      }
    } finally {
      await worker.close()
    }
    return result
  },
  toModelOutput: (result, ctx) => {
    const stopped =
      result.stoppedAfterSeconds === null
        ? ''
        : `\n… stopped after ${result.stoppedAfterSeconds} s (time limit) having tested ${result.pathsSearched} of ${result.pathsTotal} paths; narrow the pattern.`
    if (result.matches.length === 0) return `No project file matches ${result.pattern}.${stopped}`
    const count = `${result.matches.length} file${result.matches.length === 1 ? '' : 's'} match ${result.pattern}`
    return `${count}:\n${cappedLines(result.matches, ctx.limits.maxEntries, 'files')}${stopped}`
  }
})
