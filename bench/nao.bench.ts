import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { builtEntry, OUT_DIR } from '../scripts/cli-bundle.mjs'
import { copyProject, makeTempDir, NAO_LAYOUT, REPO_ROOT } from '../test/support/fixtures'
import { makeLargeProject } from '../test/support/large-project'
import { summarise, withFloor, type Figure } from './harness'

// Side by side with nao's own renderer, alternating a nao process and a Glassbox process on the same folders
// (the large project of test/support/large-project.ts and a copy of test/fixtures/nao-layout). Runs only when
// NAO_SOURCE points at a getnao/nao checkout; nothing of nao is in this repo and nothing is fetched.
//
// nao's side is its backend's `renderToMarkdown(SystemPrompt())` (apps/backend/src/services/agent.service.ts),
// bundled from NAO_SOURCE with esbuild the way scripts/cli-bundle.mjs bundles Glassbox's command line (ESM,
// Node 20, small packages bundled). Its project folder is `env.NAO_DEFAULT_PROJECT_PATH` (apps/backend/src/env.ts),
// set by the entry below; on every call it reads RULES.md and lists databases/type=*/database=*. The bundle
// resolves packages from NAO_SOURCE's node_modules when installed, else from Glassbox's (react, zod). React
// runs its production build (NODE_ENV=production, as nao's server runs). Stubbed: only `dotenv` when neither
// has it installed (a no-op `config()`; nao uses it to load a developer's .env), named on stderr when it is.
//
// Figures `nao-side-by-side/<folder>/<step>/nao` and `…/glassbox`, the Glassbox one with the nao one as its
// floor (ratio = Glassbox ÷ nao):
// - whole-process: a cold process to the first prompt text: `node nao-renderer.child.mjs prompt` (import the
//   bundle, render, print) vs `node bin/glassbox.js prompt --project DIR --json --data-dir STORE` (one store
//   per folder, created by the warm-up run), each round with `node -e 0` (the nao figure's floor);
// - code-before-first-prompt (no folder): importing nao's bundle vs loading the bundled code `glassbox prompt`
//   runs before its first prompt (code-before-first-prompt.child.mjs);
// - open-to-first-prompt: in process, code warmed on the sample project, then this folder's first prompt text
//   (nao: setting its project folder and rendering; Glassbox: openProject, then a prompt);
// - per-message-unchanged: a prompt again, nothing changed (Glassbox: freshSnapshot's check for changed prompt
//   files and the assembly, as every message; system-prompt/large-warm leaves the check out);
// - rules-edit-to-prompt: a RULES.md line changed, then a prompt at once (the write included);
// - new-skill-to-prompt: a new skill file, then a prompt at once (nao shows no skills: it just renders again).
// Both edit steps pause SETTLE_MS before each round, on both sides.
// In-process steps: nao-renderer.child.mjs `steps` and nao-glassbox-steps.child.ts, prompt text only.

const WHOLE_PROCESS_RUNS = 10
const CODE_RUNS = 10
const STEP_PROCESSES = 7
const ROUNDS_PER_PROCESS = 8
/**
 * The pause before each edit round, on both sides: Glassbox's lets the watcher's report of the last change
 * through; nao's is there so both edits start from a process and a machine that were idle as long (an edit
 * right after the last one finds the CPU and its caches warm, and takes a third of the time).
 */
const SETTLE_MS = 400
const RENDERER_CHILD = join(import.meta.dirname, 'nao-renderer.child.mjs')
const GLASSBOX_STEPS_CHILD = join(import.meta.dirname, 'nao-glassbox-steps.child.ts')
const CODE_CHILD = join(import.meta.dirname, 'code-before-first-prompt.child.mjs')
const WARM_PROJECT = join(REPO_ROOT, 'resources', 'sample-project')
const TSX_ENV = { ...process.env, TSX_TSCONFIG_PATH: join(REPO_ROOT, 'tsconfig.node.json') }
/** The nao files the bundle is built from (relative to apps/backend/src). */
const NAO_FILES = ['env.ts', 'components/system-prompt.tsx', 'lib/markdown/index.ts', 'agents/user-rules.ts']
const NAO_ENTRY = `import { env } from './env'
import { SystemPrompt } from './components/system-prompt'
import { renderToMarkdown } from './lib/markdown'
export function useProject(dir: string): void { env.NAO_DEFAULT_PROJECT_PATH = dir }
export function renderSystemPrompt(): string { return renderToMarkdown(SystemPrompt()) }
`
const STUBS: Record<string, string> = { dotenv: 'export default { config: () => ({ parsed: {} }) }' }

const CodeSample = z.object({ codeMs: z.number() })
const StepSamples = z.object({
  openMs: z.number(),
  perMessage: z.array(z.number()),
  rulesEdit: z.array(z.number()),
  newSkill: z.array(z.number())
})
type StepSamples = z.infer<typeof StepSamples>

export async function* figures(): AsyncGenerator<Figure> {
  const naoSource = process.env.NAO_SOURCE
  if (!naoSource) {
    process.stderr.write('nao.bench.ts: skipped; set NAO_SOURCE to a getnao/nao checkout to compare with nao (NAO_SOURCE=… npm run bench -- nao)\n')
    return
  }
  await builtEntry('cli')
  const temp = makeTempDir('glassbox-bench-nao-')
  const naoLayout = copyProject(NAO_LAYOUT, 'nao-layout')
  try {
    // A prompt first, as any earlier one: it leaves the code cache `glassbox prompt` starts with.
    timedNode(['bin/glassbox.js', 'prompt', '--project', WARM_PROJECT, '--json', '--data-dir', join(temp.dir, 'store-warm-up')])
    const bundle = await bundleNaoRenderer(naoSource, temp.dir)
    yield* sideBySide('code-before-first-prompt', ...codeBeforeFirstPrompt(bundle))
    const large = join(temp.dir, 'large')
    makeLargeProject(large)
    for (const [folder, dir] of [['large', large], ['nao-layout', naoLayout.dir]] as const) {
      yield* wholeProcess(folder, dir, bundle, join(temp.dir, `store-${folder}`))
      yield* inProcessSteps(folder, dir, bundle)
    }
  } finally {
    naoLayout.cleanup()
    temp.cleanup()
  }
}

/** Bundles nao's system prompt renderer from its sources into `outDir`; returns the bundle's path. */
async function bundleNaoRenderer(naoSource: string, outDir: string): Promise<string> {
  const backend = join(naoSource, 'apps', 'backend', 'src')
  const missing = NAO_FILES.filter((file) => !existsSync(join(backend, file)))
  if (missing.length > 0) throw new Error(`NAO_SOURCE=${naoSource} is not a nao checkout this bench knows: apps/backend/src/${missing.join(', ')} missing`)
  const { build } = await import('esbuild')
  const outfile = join(outDir, 'nao-renderer.mjs')
  const stubbed: string[] = []
  await build({
    stdin: { contents: NAO_ENTRY, resolveDir: backend, sourcefile: 'nao-renderer-entry.ts', loader: 'ts' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    banner: { js: "import { createRequire as __naoRequire } from 'node:module'; const require = __naoRequire(import.meta.url);" },
    // nao's backend tsconfig: "jsx": "react-jsx".
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    nodePaths: [join(REPO_ROOT, 'node_modules')],
    logLevel: 'warning',
    plugins: [
      {
        name: 'stub-when-missing',
        setup(bundler) {
          const filter = new RegExp(`^(${Object.keys(STUBS).join('|')})$`)
          bundler.onResolve({ filter }, async (args) => {
            if (args.pluginData === 'probe') return undefined
            const found = await bundler.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'probe' })
            if (found.errors.length === 0) return { path: found.path }
            stubbed.push(args.path)
            return { path: args.path, namespace: 'nao-stub' }
          })
          bundler.onLoad({ filter: /.*/, namespace: 'nao-stub' }, (args) => ({ contents: STUBS[args.path], loader: 'js' }))
        }
      }
    ]
  })
  if (stubbed.length > 0) process.stderr.write(`nao.bench.ts: not installed in ${naoSource}, stubbed in nao's bundle: ${stubbed.join(', ')}\n`)
  return outfile
}

/** Runs `node args` to the end and returns its stdout and wall-clock milliseconds; a failure throws. */
function timedNode(args: string[], env: NodeJS.ProcessEnv = process.env): { stdout: string; ms: number } {
  const start = performance.now()
  const result = spawnSync(process.execPath, args, { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 })
  const ms = performance.now() - start
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${result.stderr}`)
  return { stdout: result.stdout, ms }
}

function lastJsonLine(stdout: string): unknown {
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null')
}

/** The nao figure and the Glassbox figure of one step, the Glassbox one judged against nao's. */
function sideBySide(step: string, nao: number[], glassbox: number[], naoFloor?: Figure): Figure[] {
  const naoFigure = summarise(`nao-side-by-side/${step}/nao`, nao)
  return [naoFloor ? withFloor(naoFigure, naoFloor) : naoFigure, withFloor(summarise(`nao-side-by-side/${step}/glassbox`, glassbox), naoFigure)]
}

function codeBeforeFirstPrompt(bundle: string): [number[], number[]] {
  const nao: number[] = []
  const glassbox: number[] = []
  for (let run = 0; run < CODE_RUNS; run++) {
    nao.push(CodeSample.parse(lastJsonLine(timedNode([RENDERER_CHILD, 'load', bundle]).stdout)).codeMs)
    glassbox.push(CodeSample.parse(lastJsonLine(timedNode([CODE_CHILD, OUT_DIR]).stdout)).codeMs)
  }
  return [nao, glassbox]
}

function wholeProcess(folder: string, dir: string, bundle: string, store: string): Figure[] {
  const node: number[] = []
  const nao: number[] = []
  const glassbox: number[] = []
  // Round 0 is warm-up (it also creates Glassbox's store).
  for (let run = 0; run <= WHOLE_PROCESS_RUNS; run++) {
    const floor = timedNode(['-e', '0'])
    const naoRun = timedNode([RENDERER_CHILD, 'prompt', bundle, dir])
    const glassboxRun = timedNode(['bin/glassbox.js', 'prompt', '--project', dir, '--json', '--data-dir', store])
    if (!naoRun.stdout.includes('## User Rules')) throw new Error(`nao's prompt of ${dir} has no User Rules section`)
    if (!glassboxRun.stdout.includes('## User Rules')) throw new Error(`glassbox prompt --json of ${dir} has no User Rules section`)
    if (run === 0) continue
    node.push(floor.ms)
    nao.push(naoRun.ms)
    glassbox.push(glassboxRun.ms)
  }
  const floor = summarise(`nao-side-by-side/${folder}/node -e 0`, node)
  return [floor, ...sideBySide(`${folder}/whole-process`, nao, glassbox, floor)]
}

function inProcessSteps(folder: string, dir: string, bundle: string): Figure[] {
  const nao: StepSamples[] = []
  const glassbox: StepSamples[] = []
  const rounds = String(ROUNDS_PER_PROCESS)
  const settle = String(SETTLE_MS)
  for (let run = 0; run < STEP_PROCESSES; run++) {
    nao.push(StepSamples.parse(lastJsonLine(timedNode([RENDERER_CHILD, 'steps', bundle, WARM_PROJECT, dir, rounds, settle]).stdout)))
    glassbox.push(StepSamples.parse(lastJsonLine(timedNode(['--import', 'tsx', GLASSBOX_STEPS_CHILD, WARM_PROJECT, dir, rounds, settle], TSX_ENV).stdout)))
  }
  const pick = (runs: StepSamples[], step: (samples: StepSamples) => number[]) => runs.flatMap(step)
  return [
    ...sideBySide(`${folder}/open-to-first-prompt`, pick(nao, (s) => [s.openMs]), pick(glassbox, (s) => [s.openMs])),
    ...sideBySide(`${folder}/per-message-unchanged`, pick(nao, (s) => s.perMessage), pick(glassbox, (s) => s.perMessage)),
    ...sideBySide(`${folder}/rules-edit-to-prompt`, pick(nao, (s) => s.rulesEdit), pick(glassbox, (s) => s.rulesEdit)),
    ...sideBySide(`${folder}/new-skill-to-prompt`, pick(nao, (s) => s.newSkill), pick(glassbox, (s) => s.newSkill))
  ]
}
