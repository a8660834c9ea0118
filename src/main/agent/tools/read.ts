import * as z from '../../../shared/zod-mini'
import { createTool } from './create-tool'
import { readVisibleText } from './project-files'

export const readInput = () =>
  z.object({
    file_path: z.string().check(z.minLength(1), z.describe('Project-relative path of the file, e.g. databases/type=duckdb/…/columns.md'))
  })

export interface ReadResult {
  path: string
  content: string
  size: number
  /** True when the file was larger than the read limit. */
  cut: boolean
}

export const readTool = createTool({
  name: 'read',
  description: 'Read a text file of the project (context files such as columns.md, docs, RULES.md).',
  inputSchema: readInput,
  async execute(input, ctx): Promise<ReadResult> {
    const read = await readVisibleText(ctx.project, input.file_path, ctx.limits.maxFileBytes)
    return { path: read.path, content: read.text, size: read.size, cut: read.cut }
  },
  toModelOutput: (result, ctx) => {
    if (result.content.trim() === '') return `${result.path} is empty.`
    const max = ctx.limits.maxOutputChars
    const body = result.content.length > max ? `${result.content.slice(0, max)}\n… ${result.content.length - max} more characters` : result.content
    return result.cut ? `${body}\n… the file is ${result.size} bytes; only the first ${ctx.limits.maxFileBytes} were read` : body
  }
})
