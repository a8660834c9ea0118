import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import { parse } from 'yaml'
import { z } from 'zod'
import { readProjectText } from '../project/read-text'

// tests/*.yml: `{name, prompt, sql}` evaluation cases. A file that cannot be used becomes a case with a
// clear error, so one bad file never hides the others. Each file is read like every project file: through the
// realpath guard (a symlink out of the project is refused), regular files only (a named pipe never blocks).

/** A test case is a few lines of YAML; anything bigger is not one. */
const MAX_TEST_FILE_BYTES = 1024 * 1024

const testCaseSchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty string'),
  prompt: z.string().trim().min(1, 'must be a non-empty string'),
  sql: z.string().trim().min(1, 'must be a non-empty string'),
  database: z.string().trim().min(1, 'must be a non-empty string').optional()
})

export interface TestCase {
  /** Project-relative path, e.g. tests/total_revenue.yml */
  file: string
  name: string
  prompt: string
  sql: string
  /** The database the expected SQL runs on (a nao_config.yaml name or file); absent: the project's first. */
  database?: string
}

export interface BrokenTestCase {
  file: string
  /** The name the file gives, or its stem when it gives none. */
  name: string
  error: string
}

export type LoadedTestCase = TestCase | BrokenTestCase

export function isBroken(testCase: LoadedTestCase): testCase is BrokenTestCase {
  return 'error' in testCase
}

export async function loadTestCases(root: string): Promise<LoadedTestCase[]> {
  const dir = join(root, 'tests')
  if (!existsSync(dir)) return []
  const files = (await readdir(dir)).filter((file) => ['.yml', '.yaml'].includes(extname(file).toLowerCase())).sort()
  return Promise.all(files.map((file) => loadTestCase(root, `tests/${file}`)))
}

async function loadTestCase(root: string, file: string): Promise<LoadedTestCase> {
  const stem = basename(file, extname(file))
  const read = await readProjectText(root, file, MAX_TEST_FILE_BYTES)
  if (!read.ok) return { file, name: stem, error: `${file}: ${read.problem.replace(/^(Refused|Cannot read) "[^"]*": /, '')}` }
  if (read.cut) return { file, name: stem, error: `${file} is over ${MAX_TEST_FILE_BYTES / 1024} KB; a test case is a few lines of YAML` }
  let document: unknown
  try {
    document = parse(read.text)
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
    return { file, name: stem, error: `${file} is not valid YAML: ${message}` }
  }
  const parsed = testCaseSchema.safeParse(document)
  if (parsed.success) return { file, ...parsed.data }
  const name = document && typeof document === 'object' && 'name' in document && typeof document.name === 'string' ? document.name : stem
  const problems = parsed.error.issues.map((issue) =>
    issue.path.length > 0
      ? `'${issue.path.join('.')}' ${issue.code === 'invalid_type' && issue.input === undefined ? 'is missing' : issue.message}`
      : 'expected a mapping with name, prompt and sql'
  )
  return { file, name, error: `${file}: ${problems.join('; ')}` }
}
