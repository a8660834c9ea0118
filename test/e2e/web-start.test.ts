import { spawn, type ChildProcess } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { copyNaoLayout, makeTempDir, REPO_ROOT } from '../support/fixtures'
import { ensureRendererBuilt } from './harness'

// `npm run web` as a person runs it: the printed line, the token, the served app, clean errors for bad flags.

const children: ChildProcess[] = []
const cleanups: Array<() => void> = []

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM')
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function startWeb(args: string[]): { child: ChildProcess; output: Promise<{ stdout: string; stderr: string; code: number | null }>; firstLine: Promise<string> } {
  // What `npm run web` runs: the bundle in out/cli, rebuilt first if a source is newer.
  const child = spawn(process.execPath, ['bin/glassbox-web.js', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0])
    })
    child.on('exit', () => reject(new Error(`web mode exited early: ${stderr}`)))
  })
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const output = new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => child.on('exit', (code) => resolve({ stdout, stderr, code })))
  firstLine.catch(() => undefined)
  return { child, output, firstLine }
}

describe('npm run web', () => {
  it('prints the URL with its token and serves the app there', async () => {
    ensureRendererBuilt()
    const project = copyNaoLayout()
    const data = makeTempDir('glassbox-web-data-')
    cleanups.push(project.cleanup, data.cleanup)
    const started = Date.now()
    const { firstLine } = startWeb(['--project', project.dir, '--data-dir', data.dir, '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'none'])
    const line = await firstLine
    console.log(`[e2e] npm run web: ready in ${Date.now() - started} ms`)
    expect(line).toMatch(/^Glassbox web: http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{20,}$/)
    const url = new URL(line.slice('Glassbox web: '.length))
    const page = await fetch(url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'")
    const project_ = await fetch(new URL('/api/getProject', url), { method: 'POST', headers: { Authorization: `Bearer ${url.searchParams.get('token')}` }, body: '{}' })
    expect(await project_.text()).toContain('"tables"')
  }, 60_000)

  it('explains a bad flag and exits 1', async () => {
    const { output } = startWeb(['--port', 'eighty'])
    const result = await output
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('--port must be a number from 0 to 65535, got "eighty".')
    expect(result.stderr).not.toContain('    at ')
  }, 60_000)
})
