import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { makeSampleProject } from '../src/main/data/sample-project'

// `npx tsx scripts/make-sample-project.ts [--out DIR]`: regenerates resources/sample-project/ (database,
// context folder, rules, skills, prompt, tests). Deterministic: commit what it writes.

const { values } = parseArgs({ options: { out: { type: 'string' } } })
const dir = resolve(values.out ?? resolve(import.meta.dirname, '../resources/sample-project'))
const result = await makeSampleProject(dir)
process.stdout.write(`Sample project written to ${dir}: ${result.tables} tables synced.\n`)
