import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { isInside } from '../project/safe-path'

// Writes one evaluation case as tests/<slug>.yml, the same shape loadTestCases reads ({name, prompt, sql},
// plus the database the query runs on). Never overwrites: a taken name becomes <slug>-2.yml, -3, …

export interface NewTestCase {
  name: string
  prompt: string
  sql: string
  /** The database the expected SQL runs on (its nao_config.yaml name); absent: the project's first one. */
  database?: string | null
}

/** Files tried before giving up; a folder with a thousand cases of one name is a mistake, not a wish. */
const MAX_SUFFIX = 1000

/** A file-name stem from a case name or question: lower-case words joined by underscores, at most 60 characters. */
export function testCaseSlug(text: string): string {
  const slug = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60)
    .replace(/_+$/, '')
  return slug === '' ? 'case' : slug
}

/** The YAML text of a case, exactly what saveTestCase writes (shown for review before saving). */
export function testCaseYaml(testCase: NewTestCase): string {
  const document: Record<string, string> = { name: testCase.name, prompt: testCase.prompt, sql: testCase.sql.trim() + '\n' }
  if (testCase.database) document.database = testCase.database
  return stringify(document, { lineWidth: 0 })
}

/** The path saveTestCase would write now: the first free tests/<slug>[-N].yml. */
export function nextTestCaseFile(root: string, slug: string): string {
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const file = `tests/${slug}${n === 1 ? '' : `-${n}`}.yml`
    if (!existsSync(join(root, file))) return file
  }
  throw new Error(`tests/ already holds ${MAX_SUFFIX} cases named ${slug}: pick another name`)
}

/**
 * Writes the case into the project's tests/ folder (created if missing) and returns its project-relative
 * path. The folder must resolve inside the project (a tests/ link leading out is refused); each file is
 * created exclusively, so an existing case — or one written meanwhile — is never replaced.
 */
export function saveTestCase(root: string, testCase: NewTestCase, slug = testCaseSlug(testCase.name)): string {
  const rootReal = realpathSync(root)
  mkdirSync(join(rootReal, 'tests'), { recursive: true })
  const testsReal = realpathSync(join(rootReal, 'tests'))
  if (!isInside(rootReal, testsReal)) throw new Error('tests/ leads outside the project folder: the case was not saved')
  const text = testCaseYaml(testCase)
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const file = `${slug}${n === 1 ? '' : `-${n}`}.yml`
    try {
      writeFileSync(join(testsReal, file), text, { flag: 'wx' })
      return `tests/${file}`
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'EEXIST') continue
      throw error
    }
  }
  throw new Error(`tests/ already holds ${MAX_SUFFIX} cases named ${slug}: pick another name`)
}
