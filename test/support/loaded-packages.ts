import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { REPO_ROOT } from './fixtures'

// Which files and packages a run of the command line loaded: node flags that log every ES module resolved
// (record-imports.mjs) and every CommonJS file required (record-requires.cjs) to $GLASSBOX_IMPORT_LOG.

/** The node flags that make a process log what it loads to $GLASSBOX_IMPORT_LOG. */
export function importLogFlags(): string[] {
  const hook = pathToFileURL(join(REPO_ROOT, 'test/support/record-imports.mjs')).href
  const register = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(hook)});`
  return ['--import', register, '--require', join(REPO_ROOT, 'test/support/record-requires.cjs')]
}

export interface LoadedPackageFiles {
  result: SpawnSyncReturns<string>
  /** Package files (`node_modules/…`), bundled into a chunk the run loaded or loaded from node_modules. */
  files: string[]
}

/**
 * Runs the ES module bundle (out/cli/cli.js) with `args`, logging to `log`, and lists the package files it
 * loaded: those bundled into the chunks it loaded (esbuild marks each with a path comment) and those it
 * required or imported. The bin runs `prompt` from the CommonJS bundle, which holds every command in one
 * script but evaluates at start what these chunks hold (what only import() reaches waits for it in both).
 */
export function packageFilesLoaded(args: string[], log: string): LoadedPackageFiles {
  const result = spawnSync(process.execPath, [...importLogFlags(), 'out/cli/cli.js', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, GLASSBOX_IMPORT_LOG: log },
    timeout: 120_000
  })
  if (result.status !== 0) return { result, files: [] }
  const lines = readFileSync(log, 'utf8').split('\n')
  const chunks = new Set(lines.filter((url) => url.startsWith('file:') && url.includes('/out/cli/')))
  // The path comment is relative to the repository: `../…/node_modules/…` when node_modules is a link (a git worktree's).
  const bundled = [...chunks].flatMap((chunk) => [...readFileSync(new URL(chunk), 'utf8').matchAll(/^\/\/ \S*?(node_modules\/\S+)/gm)].map((match) => match[1]))
  return { result, files: [...bundled, ...lines.flatMap((line) => /(node_modules\/\S+)$/.exec(line)?.[1] ?? [])] }
}
