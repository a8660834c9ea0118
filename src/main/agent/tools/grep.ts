import picomatch from 'picomatch'
import * as z from '../../../shared/zod-mini'
import { capText, createTool, ToolError } from './create-tool'
import { filesUnder, readVisibleText, shownPath, visiblePath } from './project-files'
import { startPatternWorker, type ItemHits, type PatternWorker } from './pattern-worker'
import { errorMessage } from '../../../shared/error-message'

export const grepInput = () =>
  z.object({
    pattern: z.string().check(z.minLength(1), z.maxLength(2_000), z.describe('Regular expression (JavaScript syntax) to look for.')),
    path: z.optional(z.string()).check(z.describe('Project-relative folder or file to search in; default: the whole project.')),
    glob: z.optional(z.string()).check(z.describe('Only files whose path matches this glob, e.g. **/*.md')),
    case_insensitive: z.optional(z.boolean()),
    context_lines: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(10))).check(z.describe('Lines shown before and after each match.')),
    max_results: z.optional(z.number().check(z.int(), z.minimum(1))).check(z.describe('Most matches to return.'))
  })

export interface GrepMatch {
  file: string
  line: number
  text: string
  before: string[]
  after: string[]
}

export interface GrepResult {
  pattern: string
  matches: GrepMatch[]
  /** Matches found beyond max_results in the files already searched (no further file is opened). */
  moreMatches: number
  filesSearched: number
  /** Files in scope (after path and glob). */
  filesInScope: number
  /** Binary, non-UTF-8 or unreadable files that were passed over. */
  skipped: string[]
  /** Why the search ended before every file in scope was searched; null when it covered them all. */
  stopped: GrepStop | null
}

export type GrepStop =
  | { reason: 'max-results' }
  | { reason: 'time'; seconds: number }
  /** One file held the pattern past the budget: the regex backtracks, the amount of text is not the cost. */
  | { reason: 'too-costly'; file: string; seconds: number }
  | { reason: 'cancelled' }

const MAX_LINE_CHARS = 300
const clip = (line: string): string => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… (${line.length - MAX_LINE_CHARS} more characters)` : line)

/** Files are read a few at a time and handed to the pattern worker in batches of about this much text. */
const BATCH_CHARS = 512 * 1024
const BATCH_FILES = 64
const READ_AHEAD = 8

export const grepTool = createTool({
  name: 'grep',
  description: 'Search the text of project files for a regular expression; returns file:line matches with optional context.',
  inputSchema: grepInput,
  async execute(input, ctx): Promise<GrepResult> {
    const flags = input.case_insensitive ? 'i' : ''
    const started = Date.now()
    const deadline = started + ctx.limits.searchTimeMs
    const scope = visiblePath(ctx.project, input.path ?? '')
    const inGlob = input.glob ? picomatch(input.glob, { dot: true }) : null
    const anywhere = input.glob && !input.glob.includes('/') ? picomatch(`**/${input.glob}`, { dot: true }) : null
    const files = filesUnder(ctx.project, scope).filter((file) => !inGlob || inGlob(file) || anywhere?.(file))
    // Started last: every refusal above comes before there is a thread to stop.
    let worker: PatternWorker
    try {
      worker = startPatternWorker([{ source: input.pattern, flags }])
    } catch (error) {
      throw new ToolError(`Invalid regular expression ${input.pattern}: ${errorMessage(error)}`)
    }
    const maxResults = Math.min(input.max_results ?? ctx.limits.maxGrepResults, ctx.limits.maxGrepResults)
    const context = input.context_lines ?? 0
    const result: GrepResult = { pattern: input.pattern, matches: [], moreMatches: 0, filesSearched: 0, filesInScope: files.length, skipped: [], stopped: null }
    const seconds = (): number => Math.round((Date.now() - started) / 100) / 10

    const collect = (batch: Array<{ file: string; text: string }>, hits: ItemHits[]): void => {
      hits.forEach((lineIndexes, item) => {
        if (lineIndexes.length === 0) return
        const { file, text } = batch[item]
        const lines = text.split(/\r?\n/)
        for (const index of lineIndexes) {
          if (result.matches.length >= maxResults) {
            result.moreMatches++
            continue
          }
          result.matches.push({
            file,
            line: index + 1,
            text: clip(lines[index]),
            before: lines.slice(Math.max(0, index - context), index).map(clip),
            after: lines.slice(index + 1, index + 1 + context).map(clip)
          })
        }
      })
    }

    try {
      let next = 0
      let batch: Array<{ file: string; text: string }> = []
      let batchChars = 0
      const flush = async (): Promise<boolean> => {
        if (batch.length === 0) return true
        const outcome = await worker.run(batch.map((item) => item.text), 'lines', deadline, ctx.signal)
        collect(batch, outcome.hits)
        result.filesSearched += outcome.kind === 'done' ? batch.length : outcome.itemsDone
        if (outcome.kind === 'aborted') result.stopped = { reason: 'cancelled' }
        else if (outcome.kind === 'deadline') {
          const stuckOn = batch[outcome.stuckIndex]
          // Stuck on one file for most of the budget: that is the pattern backtracking, not a big tree.
          const costly = stuckOn !== undefined && outcome.stuckMs >= Math.min(1000, ctx.limits.searchTimeMs / 2)
          result.stopped = costly ? { reason: 'too-costly', file: stuckOn.file, seconds: seconds() } : { reason: 'time', seconds: seconds() }
        }
        batch = []
        batchChars = 0
        return outcome.kind === 'done'
      }
      while (next < files.length) {
        if (ctx.signal.aborted) {
          result.stopped = { reason: 'cancelled' }
          break
        }
        if (result.matches.length >= maxResults) {
          result.stopped = { reason: 'max-results' }
          break
        }
        if (Date.now() >= deadline) {
          result.stopped = { reason: 'time', seconds: seconds() }
          break
        }
        const group = files.slice(next, next + READ_AHEAD)
        next += group.length
        const reads = await Promise.all(
          group.map((file) => readVisibleText(ctx.project, file, ctx.limits.maxFileBytes).then((read) => read.text, () => null))
        )
        reads.forEach((text, index) => {
          if (text === null) result.skipped.push(group[index])
          else {
            batch.push({ file: group[index], text })
            batchChars += text.length
          }
        })
        if ((batchChars >= BATCH_CHARS || batch.length >= BATCH_FILES) && !(await flush())) break
      }
      // Unopened files remain only when the loop broke early; a batch read but not yet searched is searched now.
      if (result.stopped === null) await flush()
    } finally {
      await worker.close()
    }
    return result
  },
  toModelOutput: (result, ctx) => {
    const stop = stopNote(result)
    if (result.matches.length === 0) return `No match for /${result.pattern}/ in ${result.filesSearched} files.${stop ? `\n${stop}` : ''}`
    const blocks = result.matches.map((match) => {
      const file = shownPath(match.file)
      const before = match.before.map((text, i) => `${file}-${match.line - match.before.length + i}- ${text}`)
      const after = match.after.map((text, i) => `${file}-${match.line + 1 + i}- ${text}`)
      return [...before, `${file}:${match.line}: ${match.text}`, ...after].join('\n')
    })
    const more = result.moreMatches > 0 ? `\n… ${result.moreMatches} more matches (raise max_results or narrow the pattern)` : ''
    // The notes on what was left out must survive the output cap, so the matches are cut to leave them room.
    const notes = more + (stop ? `\n${stop}` : '')
    const body = blocks.join(result.matches.some((m) => m.before.length + m.after.length > 0) ? '\n--\n' : '\n')
    return capText(body, Math.max(0, ctx.limits.maxOutputChars - notes.length - 80)) + notes
  }
})

/** The sentence that says a search is incomplete, and what to do about it; '' when it is complete. */
function stopNote(result: GrepResult): string {
  const stop = result.stopped
  if (stop === null) return ''
  const searched = `${result.filesSearched} of ${result.filesInScope} files`
  switch (stop.reason) {
    case 'max-results':
      return `… stopped at max_results after ${searched}; narrow the path or the pattern to see the rest.`
    case 'time':
      return `… stopped after ${stop.seconds} s (time limit) having searched ${searched}; narrow the path or glob.`
    case 'too-costly':
      return (
        `… stopped: the pattern is too costly — it ran ${stop.seconds} s on ${shownPath(stop.file)} without finishing ` +
        `(nested repetition such as (a+)+ backtracks exponentially). Searched ${searched}; simplify the pattern.`
      )
    case 'cancelled':
      return `… cancelled after ${searched}.`
  }
}
