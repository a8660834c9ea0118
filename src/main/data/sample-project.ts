import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { buildSampleDatabase, SAMPLE_SEED } from './sample-dataset'
import { SAMPLE_CONFIG, SAMPLE_RULES, SAMPLE_SKILLS, SAMPLE_SYSTEM_PROMPT, SAMPLE_TESTS } from './sample-project-files'
import { syncProject, type SyncResult } from './sync'

// Writes the whole sample project into `dir`: the DuckDB file, the hand-written files, and the databases/
// context folder produced by sync itself. Running it twice gives the same rows and the same files.

export const SAMPLE_DATABASE_FILE = 'shop.duckdb'

export async function makeSampleProject(dir: string, seed = SAMPLE_SEED): Promise<SyncResult> {
  mkdirSync(dir, { recursive: true })
  for (const generated of [SAMPLE_DATABASE_FILE, `${SAMPLE_DATABASE_FILE}.wal`, 'databases', 'tests', 'agent']) {
    rmSync(join(dir, generated), { recursive: true, force: true })
  }
  await buildSampleDatabase(join(dir, SAMPLE_DATABASE_FILE), seed)
  writeFileSync(join(dir, 'nao_config.yaml'), SAMPLE_CONFIG)
  writeFileSync(join(dir, 'RULES.md'), SAMPLE_RULES)
  mkdirSync(join(dir, 'agent/skills'), { recursive: true })
  mkdirSync(join(dir, 'agent/prompts'), { recursive: true })
  for (const [file, text] of Object.entries(SAMPLE_SKILLS)) writeFileSync(join(dir, 'agent/skills', file), text)
  writeFileSync(join(dir, 'agent/prompts/system.md'), SAMPLE_SYSTEM_PROMPT)
  mkdirSync(join(dir, 'tests'), { recursive: true })
  for (const test of SAMPLE_TESTS) {
    writeFileSync(join(dir, 'tests', test.file), stringify({ name: test.name, prompt: test.prompt, sql: `${test.sql}\n` }))
  }
  const result = await syncProject(dir)
  if (result.errors.length > 0) throw new Error(`sync of the sample project failed: ${result.errors.join('; ')}`)
  return result
}
