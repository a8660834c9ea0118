import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { builtEntry, OUT_DIR } from '../scripts/cli-bundle.mjs'
import { makeTempDir, REPO_ROOT } from '../test/support/fixtures'
import { makeLargeProject } from '../test/support/large-project'
import { ensureRendererBuilt } from '../test/e2e/harness'
import { measure, measureWithFloor, summarise, withFloor, type Figure } from './harness'

// Whole-process start-up, wall clock, as a person or a script runs the commands, against `node -e 0` measured
// in the same run, alternately with each figure's samples (the floor: what starting Node costs on this machine
// right now).
// cli/help: `glassbox --help`. cli/prompt-sample: `glassbox prompt --project resources/sample-project --json`,
// one store for every run. cli/prompt-large: the same on the large project (test/support/large-project.ts),
// one store for every run, so token counts of earlier runs are remembered (warm store); cli/prompt-large-new-question:
// the same with a question no earlier run asked (as most real calls are), whose count needs the tokenizer;
// cli/prompt-large-cold-store: a new store each run, so the tokenizer loads and every part is counted.
// web/start-to-url: `npm run web` (bin/glassbox-web.js) until it prints its URL line.
// project/code-before-first-prompt: in a fresh process, loading the bundled code `glassbox prompt` runs before
// its first prompt, from the CommonJS bundle with V8's code cache as the bin runs it (…-es-modules: from the ES
// module bundle, without a code cache); tokenizer/load-cold: then loading the library's tokenizer (a cold store's
// first count needs it; the bundled command line loads it so only in the first such run of a build, Electron and
// web mode always); tokenizer/load-rank-table: loading it from the rank table the bundle keeps after that run
// (src/main/prompt/rank-table.ts), each sample in a fresh process.
// The bundle in out/cli is brought up to date first, so no figure includes a rebuild.

const RUNS = 10

function run(args: string[]): void {
  const result = spawnSync(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 })
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${result.stderr.toString()}`)
}

/** Starts web mode and resolves when it prints its URL; the process is then stopped. */
function webStartToUrl(dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/glassbox-web.js', '--project', 'resources/sample-project', '--data-dir', dataDir, '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'none'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('Glassbox web: http')) {
        child.kill('SIGTERM')
        resolve()
      }
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('exit', () => {
      clearTimeout(timer)
      reject(new Error(`web mode exited before printing its URL: ${stderr}`))
    })
  })
}

export async function* figures(): AsyncGenerator<Figure> {
  await builtEntry('cli')
  ensureRendererBuilt()
  const nodeAlone = () => run(['-e', '0'])
  yield await measure('node -e 0', nodeAlone, { n: RUNS, warmup: 2 })
  // Each figure with `node -e 0` sampled alternately with it (its floor_median_ms is that floor's).
  const againstNode = (name: string, command: () => unknown, runs = RUNS) => measureWithFloor(name, command, 'node -e 0', nodeAlone, { n: runs, warmup: 1 })
  yield await againstNode('cli/help', () => run(['bin/glassbox.js', '--help']))
  const data = makeTempDir('glassbox-bench-cli-')
  try {
    // One store for every run, as for a person or script calling it many times a day (the warm-up creates it).
    const prompt = () => run(['bin/glassbox.js', 'prompt', '--project', 'resources/sample-project', '--json', '--data-dir', join(data.dir, 'cli')])
    yield await againstNode('cli/prompt-sample', prompt)
    yield await againstNode('web/start-to-url', () => webStartToUrl(join(data.dir, 'web')))
    const large = join(data.dir, 'large')
    makeLargeProject(large)
    const promptLarge = (store: string) => () => run(['bin/glassbox.js', 'prompt', '--project', large, '--json', '--data-dir', store])
    yield await againstNode('cli/prompt-large', promptLarge(join(data.dir, 'cli-large')), 2 * RUNS)
    let questions = 0
    const newQuestion = () =>
      run(['bin/glassbox.js', 'prompt', '--project', large, '--json', '--data-dir', join(data.dir, 'cli-large'), '--question', `How did revenue in region ${++questions} change last week?`])
    yield await againstNode('cli/prompt-large-new-question', newQuestion)
    let coldStores = 0
    const coldStore = () => promptLarge(join(data.dir, `cli-large-cold-${coldStores++}`))()
    yield await againstNode('cli/prompt-large-cold-store', coldStore)
    yield* codeBeforeFirstPrompt()
    yield await rankTableLoad(data.dir)
  } finally {
    data.cleanup()
  }
}

async function rankTableLoad(dir: string): Promise<Figure> {
  // The runs above (a new question each) left the table beside the bundle.
  const table = join(OUT_DIR, 'o200k.ranks')
  const child = join(dir, 'rank-table-load.child.cjs')
  const { build } = await import('esbuild')
  await build({ entryPoints: [join(import.meta.dirname, 'rank-table-load.child.ts')], outfile: child, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['gpt-tokenizer'], logLevel: 'warning' })
  const samples: number[] = []
  for (let index = 0; index < RUNS; index++) {
    const result = spawnSync(process.execPath, [child, table], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 })
    if (result.status !== 0) throw new Error(`rank-table-load child failed: ${result.stderr}`)
    samples.push((JSON.parse(result.stdout) as { ms: number }).ms)
  }
  return summarise('tokenizer/load-rank-table', samples)
}

function codeBeforeFirstPrompt(): Figure[] {
  const sample = (mode: 'cached' | 'es-modules') => {
    const result = spawnSync(process.execPath, [join(import.meta.dirname, 'code-before-first-prompt.child.mjs'), OUT_DIR, mode], { encoding: 'utf8', timeout: 60_000 })
    if (result.status !== 0) throw new Error(`code-before-first-prompt child failed: ${result.stderr}`)
    return JSON.parse(result.stdout) as { codeMs: number; tokenizerMs: number }
  }
  const code: number[] = []
  const uncached: number[] = []
  const tokenizer: number[] = []
  const nodeAlone: number[] = []
  // Alternating: a busy neighbour slows all, not one.
  for (let index = 0; index < RUNS; index++) {
    const start = performance.now()
    run(['-e', '0'])
    nodeAlone.push(performance.now() - start)
    const cached = sample('cached')
    code.push(cached.codeMs)
    tokenizer.push(cached.tokenizerMs)
    uncached.push(sample('es-modules').codeMs)
  }
  // In-process milliseconds against a whole process's: not the same kind of time, but it tells how fast this
  // machine is (the 25 ms the figure is held to was set where node -e 0 took 49 ms, a ratio of 0.51).
  return [
    withFloor(summarise('project/code-before-first-prompt', code), summarise('node -e 0', nodeAlone)),
    summarise('project/code-before-first-prompt-es-modules', uncached),
    summarise('tokenizer/load-cold', tokenizer)
  ]
}
