import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { builtEntry } from '../scripts/cli-bundle.mjs'
import { makeTempDir, REPO_ROOT } from '../test/support/fixtures'
import { ensureRendererBuilt } from '../test/e2e/harness'
import { measure, withFloor, type Figure } from './harness'

// Whole-process start-up, wall clock, as a person or a script runs the commands, against `node -e 0` measured
// in the same run (the floor: what starting Node costs on this machine right now).
// cli/help: `glassbox --help`. cli/prompt-sample: `glassbox prompt --project resources/sample-project --json`
// on a fresh store. web/start-to-url: `npm run web` (bin/glassbox-web.js) until it prints its URL line.
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
  const floor = await measure('node -e 0', () => run(['-e', '0']), { n: RUNS, warmup: 2 })
  yield floor
  yield withFloor(await measure('cli/help', () => run(['bin/glassbox.js', '--help']), { n: RUNS, warmup: 2 }), floor)
  const data = makeTempDir('glassbox-bench-cli-')
  try {
    // One store for every run, as for a person or script calling it many times a day (the warm-up creates it).
    const prompt = () => run(['bin/glassbox.js', 'prompt', '--project', 'resources/sample-project', '--json', '--data-dir', join(data.dir, 'cli')])
    yield withFloor(await measure('cli/prompt-sample', prompt, { n: RUNS, warmup: 1 }), floor)
    yield withFloor(await measure('web/start-to-url', () => webStartToUrl(join(data.dir, 'web')), { n: RUNS, warmup: 1 }), floor)
  } finally {
    data.cleanup()
  }
}
