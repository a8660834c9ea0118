import { lstatSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { stringify } from 'yaml'
import { isInside } from '../project/safe-path'
import { testCaseSlug, testCaseYaml } from '../eval/save-test-case'
import type { SyncResult } from '../data/sync'
import { buildExampleCase, type ExampleOutcome } from './example-case'
import { detectDataFiles, kindOf, databaseName, type DetectedDataFile } from './detect-data'

// `glassbox init` and "New project…": a folder of data files (or one database file) becomes a project in
// nao's layout — nao_config.yaml with nao's keys, a RULES.md to fill in, .naoignore, agent/skills/, and
// tests/ with one example case built from the data — then sync writes databases/. A file that is already
// there is never replaced: it is kept and reported, so running init twice changes nothing.

export class InitError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InitError'
  }
}

export interface InitPlanInput {
  /** The folder (or a database file inside the folder to make the project from). */
  target: string
  /** project_name; default: the folder's name. */
  name?: string
  /** Only these files (paths relative to the folder, or absolute inside it; [] for none); default: every data file found. */
  databases?: readonly string[]
}

export interface PlannedFile {
  /** Project-relative path. */
  path: string
  content: string
}

export interface InitPlan {
  root: string
  name: string
  databases: DetectedDataFile[]
  files: PlannedFile[]
  /** Folders to create (kept when present). */
  folders: string[]
  example: ExampleOutcome
}

export interface InitReport {
  root: string
  name: string
  databases: DetectedDataFile[]
  /** Project-relative paths written now. */
  written: string[]
  /** Project-relative paths that existed and were left as they were. */
  kept: string[]
  /** Why there is no example case, when there is none. */
  exampleSkipped: string | null
  sync: Pick<SyncResult, 'tables' | 'errors'> | null
}

/** Finds the data and decides every file init would write, without writing anything. */
export async function planInit(input: InitPlanInput): Promise<InitPlan> {
  const target = resolve(input.target)
  const stat = statSync(target, { throwIfNoEntry: false })
  if (!stat) throw new InitError(`not found: ${input.target}`)
  // A database file: the project is its folder, declaring that file.
  const root = realpathSync(stat.isDirectory() ? target : dirname(target))
  const wanted = stat.isDirectory() ? (input.databases ?? []) : [target, ...(input.databases ?? [])]
  const databases = input.databases !== undefined || !stat.isDirectory() ? chosenFiles(root, wanted) : detectDataFiles(root)
  const name = input.name?.trim() || basename(root)
  const example = databases.length > 0 ? await buildExampleCase(root, databases) : { ok: false as const, reason: 'no data file to ask about' }
  const files: PlannedFile[] = [
    { path: 'nao_config.yaml', content: configYaml(name, databases) },
    { path: 'RULES.md', content: rulesSkeleton(name) },
    { path: '.naoignore', content: NAOIGNORE }
  ]
  if (example.ok) files.push({ path: `tests/${testCaseSlug(example.testCase.name)}.yml`, content: testCaseYaml(example.testCase) })
  return { root, name, databases, files, folders: ['agent/skills', 'tests'], example }
}

/** Writes the plan (never replacing a file), then syncs the declared databases into databases/. */
export async function applyInit(plan: InitPlan, options: { sync?: boolean } = {}): Promise<InitReport> {
  const written: string[] = []
  const kept: string[] = []
  for (const folder of plan.folders) {
    const path = safeTarget(plan.root, folder)
    if (lstatSync(path, { throwIfNoEntry: false })) kept.push(`${folder}/`)
    else {
      mkdirSync(path, { recursive: true })
      written.push(`${folder}/`)
    }
  }
  for (const file of plan.files) {
    const path = safeTarget(plan.root, file.path)
    mkdirSync(dirname(path), { recursive: true })
    try {
      writeFileSync(path, file.content, { flag: 'wx' })
      written.push(file.path)
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error
      kept.push(file.path)
    }
  }
  let sync: InitReport['sync'] = null
  if (options.sync !== false) {
    // Loaded on use: sync brings DuckDB's bindings.
    const { syncProject } = await import('../data/sync')
    const result = await syncProject(plan.root)
    sync = { tables: result.tables, errors: result.errors }
  }
  return { root: plan.root, name: plan.name, databases: plan.databases, written, kept, exampleSkipped: plan.example.ok ? null : plan.example.reason, sync }
}

function chosenFiles(root: string, wanted: readonly string[]): DetectedDataFile[] {
  const used = new Set<string>()
  return wanted.map((given) => {
    const absolute = isAbsolute(given) ? given : resolve(root, given)
    const real = (() => {
      try {
        return realpathSync(absolute)
      } catch {
        throw new InitError(`database file not found: ${given}`)
      }
    })()
    // The agent reads only inside the project: a file elsewhere must be copied (or moved) in first.
    if (!isInside(root, real)) throw new InitError(`${given} is outside ${root}: copy it into the folder first`)
    if (!statSync(real).isFile()) throw new InitError(`${given} is not a regular file`)
    const kind = kindOf(real)
    if (!kind) throw new InitError(`${given} is neither a DuckDB or SQLite database nor a CSV, Parquet or JSON file`)
    const path = relative(root, real).split('\\').join('/')
    let name = databaseName(path)
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${databaseName(path)}_${n}`
    used.add(name.toLowerCase())
    return { path, kind, name }
  })
}

/** The absolute path of a file init writes; its folder must not lead out of the project through a link. */
function safeTarget(root: string, path: string): string {
  const absolute = join(root, path)
  let existing = dirname(absolute)
  while (!lstatSync(existing, { throwIfNoEntry: false })) existing = dirname(existing)
  if (!isInside(root, realpathSync(existing))) throw new InitError(`${path}: its folder leads outside the project; nothing was written there`)
  return absolute
}

function configYaml(name: string, databases: readonly DetectedDataFile[]): string {
  const entries = databases.map((file) => ({
    name: file.name,
    type: file.kind,
    path: `./${file.path}`,
    accessors: ['columns', 'preview', 'description'],
    include: [],
    exclude: []
  }))
  return stringify({ project_name: name, databases: entries }, { lineWidth: 0 })
}

function rulesSkeleton(name: string): string {
  return `# ${name}

What the data is about, for someone who has never seen it: where it comes from, what one row of each main
table means, and which period it covers.

## Definitions

- Write how the business counts its key figures, e.g. "revenue is the sum of amount over completed orders".

## How to answer

- Answer briefly and say which table each number comes from.
- When a question leaves out the period or the metric, ask which one is meant.
`
}

const NAOIGNORE = `# Files the agent must not see (gitignore patterns), e.g. secrets or raw exports
.env
*.key
`
