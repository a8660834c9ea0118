import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createGlassbox } from '../app/create-glassbox'
import { startWebServer } from './server'
import { errorMessage } from '../../shared/error-message'
import { findAppRoot } from '../store/native-binding'
import { rendererOutdated } from './renderer-freshness'
import { keepBuildFilesBeside } from '../build-cache'

// `npm run web -- --project DIR [--port N] [--endpoint URL] [--model NAME] [--data-dir DIR]`

// The folder with package.json above this file, from the sources (src/main/web) and from the bundle (out/cli).
const REPO_ROOT = findAppRoot(import.meta.dirname) ?? process.cwd()
const RENDERER_DIR = resolve(REPO_ROOT, 'out/renderer')
keepBuildFilesBeside(import.meta.dirname)

function fail(message: string): never {
  process.stderr.write(`glassbox web: ${message}\n`)
  process.exit(1)
}

function readOptions(): { project?: string; port: number; endpoint?: string; model?: string; dataDir?: string } {
  try {
    const { values } = parseArgs({
      options: {
        project: { type: 'string' },
        port: { type: 'string' },
        endpoint: { type: 'string' },
        model: { type: 'string' },
        'data-dir': { type: 'string' }
      },
      strict: true
    })
    const port = values.port === undefined ? 0 : Number(values.port)
    if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a number from 0 to 65535, got "${values.port}".`)
    return { project: values.project, port, endpoint: values.endpoint, model: values.model, dataDir: values['data-dir'] }
  } catch (error) {
    fail(`${errorMessage(error)}\nUsage: npm run web -- --project DIR [--port N] [--endpoint URL] [--model NAME] [--data-dir DIR]`)
  }
}

function ensureRendererBuilt(): void {
  if (existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    // Rebuilding takes a while; say so rather than silently serve an old UI.
    if (rendererOutdated(REPO_ROOT, RENDERER_DIR)) process.stderr.write('glassbox web: out/renderer is older than src/renderer or src/shared: run `npm run build` to serve the current UI.\n')
    return
  }
  process.stderr.write('glassbox web: out/renderer is missing, building it once with `npx electron-vite build`…\n')
  const build = spawnSync('npx', ['electron-vite', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
  if (build.status !== 0 || !existsSync(resolve(RENDERER_DIR, 'index.html'))) {
    fail('building the renderer failed; run `npx electron-vite build` and try again.')
  }
}

async function main(): Promise<void> {
  const options = readOptions()
  ensureRendererBuilt()
  const api = await createGlassbox({
    projectPath: options.project ? resolve(options.project) : undefined,
    // Like the desktop app: without --project, the project used last, else the sample project.
    reopenLastProject: true,
    defaultProjectPath: resolve(REPO_ROOT, 'resources', 'sample-project'),
    endpoint: options.endpoint,
    model: options.model,
    dataDir: options.dataDir
  })
  const server = await startWebServer({ api, port: options.port, host: '127.0.0.1', rendererDir: RENDERER_DIR })
  process.stdout.write(`Glassbox web: ${server.url}?token=${server.token}\n`)
  const shutdown = (): void => {
    void server
      .close()
      .then(() => api.close())
      .finally(() => process.exit(0))
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
}

main().catch((error: unknown) => fail(errorMessage(error)))
