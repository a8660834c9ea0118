import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyNaoLayout, makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { unusedLoopbackPort } from '../../../test/support/free-port'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import type { DoctorReport } from '../../shared/api'
import { runCli } from '../../../test/support/capture-io'

const cleanups: (() => void | Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The real `glassbox` process (asynchronous: the scripted servers answer from this process). */
function glassbox(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, ['bin/glassbox.js', ...args], { cwd: REPO_ROOT, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
    )
  )
}

/** A llama.cpp-like server with this window, tools in its template and exact token counts. */
async function llamaServer(nCtx: number): Promise<ScriptedServer> {
  const server = await startScriptedServer({
    llamaProps: { default_generation_settings: { n_ctx: nCtx }, chat_template_caps: { supports_tools: true } },
    tokenizer: (text) => Math.ceil(text.length / 4)
  })
  cleanups.push(() => server.close())
  return server
}

function project(): string {
  const copy = copyNaoLayout()
  cleanups.push(copy.cleanup)
  return copy.dir
}

function dataDir(): string {
  const temp = makeTempDir('glassbox-doctor-store-')
  cleanups.push(temp.cleanup)
  return temp.dir
}

describe('glassbox doctor', () => {
  it('passes a healthy set-up, every line ✓, exit 0', async () => {
    const server = await llamaServer(32_768)
    const result = await glassbox(['doctor', '--project', project(), '--endpoint', server.url, '--model', 'scripted-model', '--data-dir', dataDir()])
    expect(result.stderr).toBe('')
    const lines = result.stdout.trim().split('\n')
    expect(lines.filter((line) => /^[✗!]/.test(line))).toEqual([])
    for (const title of ['Project files parse', 'Test cases', 'Database', 'Model server', 'Context window', 'Output cap', 'Tool calling', 'Exact token counts', 'Store']) {
      expect(lines.some((line) => line.startsWith(`✓ ${title}: `)), title).toBe(true)
    }
    expect(result.stdout).toMatch(/✓ Database: duckdb-jaffle-shop \(duckdb, jaffle_shop\.duckdb\) answers and is read-only/)
    expect(result.stdout).toMatch(/✓ Context window: scripted-model at http:\/\/127\.0\.0\.1:\d+\/v1: 32,768 tokens \(llama\.cpp \/props n_ctx\); this project's request needs [\d,]+ \(system prompt/)
    expect(lines.at(-1)).toBe('Everything Glassbox needs is in place.')
    expect(result.code).toBe(0)
  }, 120_000)

  it('names each fault of a broken set-up with its fix: server down, window too small, database unreadable', async () => {
    const dir = project()
    writeFileSync(join(dir, 'broken.duckdb'), 'this is not a database at all')
    writeFileSync(join(dir, 'nao_config.yaml'), `project_name: broken\ndatabases:\n- {name: jaffle, type: duckdb, path: ./jaffle_shop.duckdb}\n- {name: broken, type: duckdb, path: ./broken.duckdb}\n`)
    const small = await llamaServer(1024)
    const down = `http://127.0.0.1:${await unusedLoopbackPort()}/v1`
    const result = await glassbox(['doctor', '--project', dir, '--endpoint', down, '--endpoint', small.url, '--model', 'scripted-model', '--data-dir', dataDir(), '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(1)
    const report: DoctorReport = JSON.parse(result.stdout)
    expect(report.ok).toBe(false)
    const failed = report.lines.filter((line) => line.status === 'fail')
    expect(failed).toEqual([
      {
        id: 'database',
        title: 'Database',
        status: 'fail',
        detail: 'broken (broken.duckdb): is neither a DuckDB nor a SQLite database file',
        fix: "Point path: in nao_config.yaml at a readable DuckDB or SQLite file, or fix the file's permissions."
      },
      {
        id: 'model-server',
        title: 'Model server',
        status: 'fail',
        detail: `Could not reach the model server at ${down}: nothing is listening there (connection refused).`,
        fix: expect.stringMatching(/^Start the server that should listen there \(e\.g\. `llama-server -m model\.gguf --jinja -c 16384 --port \d+`/)
      },
      {
        id: 'context-window',
        title: 'Context window',
        status: 'fail',
        detail: expect.stringMatching(new RegExp(`^scripted-model at ${small.url.replaceAll('.', '\\.')}: the window is 1,024 tokens \\(llama\\.cpp /props n_ctx\\), smaller than the [\\d,]+ this project's request needs \\(system prompt [\\d,]+ \\+ tools [\\d,]+ \\+ answer reserve 256 \\+ margin 52\\)$`)),
        fix: expect.stringContaining('-c 16384')
      },
      { id: 'output-cap', title: 'Output cap', status: 'fail', detail: expect.stringContaining('an answer gets only 256 tokens'), fix: expect.any(String) }
    ])
    // The good database still passes beside the broken one.
    expect(report.lines).toContainEqual(expect.objectContaining({ id: 'database', status: 'pass', detail: expect.stringMatching(/^jaffle \(duckdb, jaffle_shop\.duckdb\) answers and is read-only/) }))
  }, 120_000)

  it('asks a server that does not say whether it takes tools, and says what it cannot tell', async () => {
    // Neither server reports its window, tool support or a counting endpoint (like vLLM or a bare proxy).
    const takesTools = await startScriptedServer({ script: [{ text: 'OK' }] })
    const refusesTools = await startScriptedServer({ script: [{ fault: 'tools-unsupported' }] })
    cleanups.push(() => takesTools.close(), () => refusesTools.close())
    const result = await runCli(['doctor', '--project', project(), '--endpoint', takesTools.url, '--endpoint', refusesTools.url, '--model', 'scripted-model', '--data-dir', dataDir(), '--json'])
    const report: DoctorReport = JSON.parse(result.stdout)
    const of = (id: string) => report.lines.filter((line) => line.id === id).map((line) => [line.status, line.detail])
    expect(of('tools')).toEqual([
      ['pass', `scripted-model at ${takesTools.url}: accepted a request offering a tool`],
      ['fail', expect.stringMatching(new RegExp(`^scripted-model at ${refusesTools.url.replaceAll('.', '\\.')}: refused a request offering a tool \\(HTTP 400: .*does not support tools`))]
    ])
    expect(of('context-window').map(([status]) => status)).toEqual(['warn', 'warn'])
    expect(of('context-window')[0][1]).toMatch(/the server does not say its window; Glassbox assumes 8,192 tokens/)
    expect(of('exact-count')).toEqual([
      ['warn', expect.stringContaining('has no counting endpoint')],
      ['warn', expect.stringContaining('has no counting endpoint')]
    ])
    // The probe offered a tool and asked for one token, nothing more.
    expect(takesTools.chatRequests().map((request) => request.body)).toEqual([expect.objectContaining({ max_tokens: 1, stream: false, tools: [expect.objectContaining({ type: 'function' })] })])
    expect(result.code).toBe(1)
  }, 120_000)

  it('says the store cannot be written, and still checks the rest', async () => {
    const file = join(dataDir(), 'not-a-folder')
    writeFileSync(file, '')
    const server = await llamaServer(32_768)
    const result = await glassbox(['doctor', '--project', project(), '--endpoint', server.url, '--data-dir', file])
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^✗ Store: .*not-a-folder\/glassbox\.sqlite: .+\n {4}fix: Make the folder writable, or point --data-dir \(or GLASSBOX_DATA_DIR\) at a writable folder\.$/m)
    expect(result.stdout).toMatch(/^✓ Context window: /m)
  }, 120_000)
})
