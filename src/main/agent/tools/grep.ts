import picomatch from 'picomatch'
import { z } from 'zod'
import { createTool, ToolError } from './create-tool'
import { filesUnder, readVisibleText, visiblePath } from './project-files'
import { errorMessage } from '../../../shared/error-message'

export const grepInput = z.object({
  pattern: z.string().min(1).describe('Regular expression (JavaScript syntax) to look for.'),
  path: z.string().optional().describe('Project-relative folder or file to search in; default: the whole project.'),
  glob: z.string().optional().describe('Only files whose path matches this glob, e.g. **/*.md'),
  case_insensitive: z.boolean().optional(),
  context_lines: z.number().int().min(0).max(10).optional().describe('Lines shown before and after each match.'),
  max_results: z.number().int().min(1).optional().describe('Most matches to return.')
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
  /** Matches found beyond max_results (counting stops at files already opened). */
  moreMatches: number
  filesSearched: number
  skipped: string[]
}

const MAX_LINE_CHARS = 300
const clip = (line: string): string => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… (${line.length - MAX_LINE_CHARS} more characters)` : line)

export const grepTool = createTool({
  name: 'grep',
  description: 'Search the text of project files for a regular expression; returns file:line matches with optional context.',
  inputSchema: grepInput,
  async execute(input, ctx): Promise<GrepResult> {
    let regex: RegExp
    try {
      regex = new RegExp(input.pattern, input.case_insensitive ? 'i' : '')
    } catch (error) {
      throw new ToolError(`Invalid regular expression ${input.pattern}: ${errorMessage(error)}`)
    }
    const scope = visiblePath(ctx.project, input.path ?? '')
    const inGlob = input.glob ? picomatch(input.glob, { dot: true }) : null
    const anywhere = input.glob && !input.glob.includes('/') ? picomatch(`**/${input.glob}`, { dot: true }) : null
    const files = filesUnder(ctx.project, scope).filter((file) => !inGlob || inGlob(file) || anywhere?.(file))
    const maxResults = Math.min(input.max_results ?? ctx.limits.maxGrepResults, ctx.limits.maxGrepResults)
    const context = input.context_lines ?? 0
    const result: GrepResult = { pattern: input.pattern, matches: [], moreMatches: 0, filesSearched: 0, skipped: [] }
    for (const file of files) {
      if (ctx.signal.aborted) break
      let text: string
      try {
        text = (await readVisibleText(ctx.project, file, ctx.limits.maxFileBytes)).text
      } catch {
        result.skipped.push(file)
        continue
      }
      result.filesSearched++
      const lines = text.split(/\r?\n/)
      lines.forEach((line, index) => {
        if (!regex.test(line)) return
        if (result.matches.length >= maxResults) return void result.moreMatches++
        result.matches.push({
          file,
          line: index + 1,
          text: clip(line),
          before: lines.slice(Math.max(0, index - context), index).map(clip),
          after: lines.slice(index + 1, index + 1 + context).map(clip)
        })
      })
    }
    return result
  },
  toModelOutput: (result) => {
    if (result.matches.length === 0) return `No match for /${result.pattern}/ in ${result.filesSearched} files.`
    const blocks = result.matches.map((match) => {
      const before = match.before.map((text, i) => `${match.file}-${match.line - match.before.length + i}- ${text}`)
      const after = match.after.map((text, i) => `${match.file}-${match.line + 1 + i}- ${text}`)
      return [...before, `${match.file}:${match.line}: ${match.text}`, ...after].join('\n')
    })
    const more = result.moreMatches > 0 ? `\n… ${result.moreMatches} more matches (raise max_results or narrow the pattern)` : ''
    return blocks.join(result.matches.some((m) => m.before.length + m.after.length > 0) ? '\n--\n' : '\n') + more
  }
})
