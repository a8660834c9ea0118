import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { builtEntry, packageOf } from '../scripts/cli-bundle.mjs'
import { makeTempDir, REPO_ROOT } from '../test/support/fixtures'
import { packageFilesLoaded } from '../test/support/loaded-packages'
import { summarise, type Figure } from './harness'

// What each package the app runs on costs to load, and whether `glassbox prompt` pays for it.
// import/<specifier>: in a fresh process, from the repository (packages resolve from its node_modules), the
// milliseconds of `await import(specifier)` alone, Node's own start-up left out; the specifier is the one the
// code imports. Samples go round the packages, so a busy moment slows one round of all, not one package.
// Each figure also says whether `glassbox prompt --project resources/sample-project --json` loads the package
// (loaded_by_glassbox_prompt: a run with a store that already holds its counts, as every run after the first;
// loaded_by_glassbox_prompt_new_store: the first run, with a new store), read from what the ES module bundle
// loaded (test/support/loaded-packages.ts).

const SAMPLES = 5

/** Every package of package.json's dependencies that the code imports, as it imports it. */
const SPECIFIERS = [
  '@langchain/openai',
  '@duckdb/node-api',
  'pg',
  'mysql2',
  '@modelcontextprotocol/sdk/client/index.js',
  'chokidar',
  'better-sqlite3',
  'gpt-tokenizer',
  'handlebars',
  'gray-matter',
  'js-yaml',
  'yaml',
  'zod/mini',
  'file-type',
  'mime-types',
  'ignore',
  'picomatch'
]

type ImportFigure = Figure & { loaded_by_glassbox_prompt: boolean; loaded_by_glassbox_prompt_new_store: boolean }

export async function figures(): Promise<ImportFigure[]> {
  await builtEntry('cli')
  const loaded = packagesGlassboxPromptLoads()
  const samples = new Map<string, number[]>(SPECIFIERS.map((specifier) => [specifier, []]))
  for (let round = 0; round < SAMPLES; round++) for (const specifier of SPECIFIERS) samples.get(specifier)?.push(importMs(specifier))
  return SPECIFIERS.map((specifier) => {
    // The package as packageOf names one from its files: `@scope/name` or `name`.
    const name = packageOf(`node_modules/${specifier}/`) ?? specifier
    return {
      ...summarise(`import/${specifier}`, samples.get(specifier) ?? []),
      loaded_by_glassbox_prompt: loaded.warmStore.has(name),
      loaded_by_glassbox_prompt_new_store: loaded.newStore.has(name)
    }
  })
}

function importMs(specifier: string): number {
  const code = `const start = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - start))`
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 })
  if (result.status !== 0) throw new Error(`importing ${specifier} failed: ${result.stderr}`)
  return Number(result.stdout)
}

function packagesGlassboxPromptLoads(): { newStore: Set<string>; warmStore: Set<string> } {
  const temp = makeTempDir('glassbox-bench-imports-')
  try {
    const run = (log: string): Set<string> => {
      const { result, files } = packageFilesLoaded(['prompt', '--project', 'resources/sample-project', '--json', '--data-dir', join(temp.dir, 'store')], join(temp.dir, log))
      if (result.status !== 0) throw new Error(`glassbox prompt failed: ${result.stderr}`)
      return new Set(files.flatMap((file) => packageOf(file) ?? []))
    }
    const newStore = run('new-store.log')
    return { newStore, warmStore: run('warm-store.log') }
  } finally {
    temp.cleanup()
  }
}
