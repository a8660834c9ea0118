import picomatch from 'picomatch'
import { z } from 'zod'
import { createTool } from './create-tool'
import { cappedLines } from './project-files'

export const searchInput = z.object({
  pattern: z.string().min(1).describe('Glob over project-relative paths, e.g. **/columns.md or docs/**/*.md')
})

export interface SearchResult {
  pattern: string
  matches: string[]
}

export const searchTool = createTool({
  name: 'search',
  description: 'Find project files whose path matches a glob pattern.',
  inputSchema: searchInput,
  async execute(input, ctx): Promise<SearchResult> {
    const matches = picomatch(input.pattern, { dot: true })
    // A bare name like "columns.md" also matches at any depth, as people expect from a search box.
    const anywhere = input.pattern.includes('/') ? null : picomatch(`**/${input.pattern}`, { dot: true })
    return { pattern: input.pattern, matches: ctx.project.files.filter((file) => matches(file) || anywhere?.(file)) }
  },
  toModelOutput: (result, ctx) =>
    result.matches.length === 0
      ? `No project file matches ${result.pattern}.`
      : `${result.matches.length} file${result.matches.length === 1 ? '' : 's'} match ${result.pattern}:\n${cappedLines(result.matches, ctx.limits.maxEntries, 'files')}`
})
