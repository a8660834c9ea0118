import { existsSync, promises as fsPromises } from 'node:fs'
import { basename, extname, join } from 'node:path'
import { readYaml } from '../project/yaml'
import { z } from 'zod'
import { readProjectText } from '../project/read-text'
import { expandColumnChoices } from './column-choices'

// tests/*.yml: `{name, prompt, sql}` evaluation cases, as nao writes them, plus the keys that say how to judge
// one: `database` (where the expected SQL runs), `sql` as a list (any acceptable answer passes), `ordered`,
// `extra_columns`, `duplicates` and `category`; defog's `{a, b}` column choices in the SQL are understood too. A file that cannot be used becomes a case with a
// clear error, so one bad file never hides the others. Each file is read like every project file: through the
// realpath guard (a symlink out of the project is refused), regular files only (a named pipe never blocks).

/** A test case is a few lines of YAML; anything bigger is not one. */
const MAX_TEST_FILE_BYTES = 1024 * 1024

const nonEmpty = z.string().trim().min(1, 'must be a non-empty string')

const testCaseSchema = z.object({
  name: nonEmpty,
  prompt: nonEmpty,
  sql: z.union([nonEmpty, z.array(nonEmpty).min(1, 'must list at least one SQL')], { message: 'must be a SQL string or a list of them' }),
  database: nonEmpty.optional(),
  ordered: z.boolean({ message: 'must be true or false' }).optional(),
  extra_columns: z.enum(['ignore', 'forbid'], { message: "must be 'ignore' or 'forbid'" }).optional(),
  duplicates: z.enum(['count', 'ignore'], { message: "must be 'count' or 'ignore'" }).optional(),
  category: nonEmpty.optional()
})

/** How a case's answer is judged (the README's verdict rules). */
export interface JudgeOptions {
  /** true/false: the case decides whether row order counts; absent: the question does. */
  ordered?: boolean
  extraColumns: 'ignore' | 'forbid'
  duplicates: 'count' | 'ignore'
}

export interface TestCase extends JudgeOptions {
  /** Project-relative path, e.g. tests/total_revenue.yml */
  file: string
  name: string
  prompt: string
  /** The acceptable answers' SQL, in the file's order (one for nao's plain `sql: "…"`; defog's column choices spelt out). */
  sql: string[]
  /** The declared database the expected SQL runs on; absent: where the agent's last query ran. */
  database?: string
  category?: string
}

export interface BrokenTestCase {
  file: string
  /** The name the file gives, or its stem when it gives none. */
  name: string
  error: string
}

export type LoadedTestCase = TestCase | BrokenTestCase

/** The SQLs a case accepts: its `sql` (one or a list), each with defog's `{a, b}` column choices spelt out. */
export function acceptableSql(sql: string | readonly string[]): string[] {
  return (typeof sql === 'string' ? [sql] : sql).flatMap(expandColumnChoices)
}

export function isBroken(testCase: LoadedTestCase): testCase is BrokenTestCase {
  return 'error' in testCase
}

export async function loadTestCases(root: string): Promise<LoadedTestCase[]> {
  const dir = join(root, 'tests')
  if (!existsSync(dir)) return []
  const files = (await fsPromises.readdir(dir)).filter((file) => ['.yml', '.yaml'].includes(extname(file).toLowerCase())).sort()
  return Promise.all(files.map((file) => loadTestCase(root, `tests/${file}`)))
}

async function loadTestCase(root: string, file: string): Promise<LoadedTestCase> {
  const stem = basename(file, extname(file))
  const read = await readProjectText(root, file, MAX_TEST_FILE_BYTES)
  if (!read.ok) return { file, name: stem, error: `${file}: ${read.problem.replace(/^(Refused|Cannot read) "[^"]*": /, '')}` }
  if (read.cut) return { file, name: stem, error: `${file} is over ${MAX_TEST_FILE_BYTES / 1024} KB; a test case is a few lines of YAML` }
  let document: unknown
  try {
    document = readYaml(read.text)
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
    return { file, name: stem, error: `${file} is not valid YAML: ${message}` }
  }
  const parsed = testCaseSchema.safeParse(document)
  if (parsed.success) {
    const { sql, database, ordered, extra_columns: extraColumns = 'ignore', duplicates = 'count', category } = parsed.data
    return {
      file,
      name: parsed.data.name,
      prompt: parsed.data.prompt,
      sql: acceptableSql(sql),
      extraColumns,
      duplicates,
      ...(database === undefined ? {} : { database }),
      ...(ordered === undefined ? {} : { ordered }),
      ...(category === undefined ? {} : { category })
    }
  }
  const name = document && typeof document === 'object' && 'name' in document && typeof document.name === 'string' ? document.name : stem
  const given = (key: PropertyKey): boolean => Boolean(document && typeof document === 'object' && Object.hasOwn(document, key))
  const problems = parsed.error.issues.map((issue) =>
    issue.path.length > 0
      ? `'${issue.path.join('.')}' ${issue.path.length === 1 && !given(issue.path[0]) ? 'is missing' : issue.message}`
      : 'expected a mapping with name, prompt and sql'
  )
  return { file, name, error: `${file}: ${problems.join('; ')}` }
}
