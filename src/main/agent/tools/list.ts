import * as z from '../../../shared/zod-mini'
import { createTool, ToolError } from './create-tool'
import { cappedLines, filesUnder, visiblePath } from './project-files'

export const listInput = () =>
  z.object({
    path: z._default(z.string(), '').check(z.describe('Project-relative folder to list; empty for the project root.'))
  })

export interface ListResult {
  path: string
  /** Sub-folders end with '/'. */
  entries: string[]
}

export const listTool = createTool({
  name: 'list',
  description: 'List the files and sub-folders directly inside a project folder.',
  inputSchema: listInput,
  async execute(input, ctx): Promise<ListResult> {
    const folder = visiblePath(ctx.project, input.path)
    const prefix = folder === '' ? '' : `${folder}/`
    const below = filesUnder(ctx.project, folder).filter((file) => file !== folder)
    if (folder !== '' && below.length === 0) {
      if (ctx.project.files.includes(folder)) throw new ToolError(`"${input.path}" is a file; use read to see it.`)
      throw new ToolError(`No folder "${input.path}" in the project (or it is empty).`)
    }
    const entries = new Set<string>()
    for (const file of below) {
      const rest = file.slice(prefix.length)
      const slash = rest.indexOf('/')
      entries.add(slash === -1 ? rest : `${rest.slice(0, slash)}/`)
    }
    return { path: folder, entries: [...entries].sort() }
  },
  toModelOutput: (result, ctx) => {
    const where = result.path === '' ? 'the project root' : result.path
    if (result.entries.length === 0) return `Nothing visible in ${where}.`
    return `${where}:\n${cappedLines(result.entries, ctx.limits.maxEntries, 'entries')}`
  }
})
