import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ANALYST, postgresAvailable, postgresConfig, SHOP_SQL, startPostgres } from '../../../test/support/postgres-server'
import { copyNaoLayout, makeTempDir, REPO_ROOT } from '../../../test/support/fixtures'
import { unusedLoopbackPort } from '../../../test/support/free-port'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import type { DoctorReport } from '../../shared/api'
import { runCli } from '../../../test/support/capture-io'

const MCP_TEST_SERVER = join(REPO_ROOT, 'test/support/mcp-test-server.mjs')
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
    const dir = project()
    // The layout's own MCP server needs Metabase; a local one stands in (approved below, like the user would).
    writeFileSync(join(dir, 'agent/mcps/mcp.json'), JSON.stringify({ mcpServers: { helper: { command: process.execPath, args: [MCP_TEST_SERVER] } } }))
    const result = await glassbox(['doctor', '--project', dir, '--endpoint', server.url, '--model', 'scripted-model', '--data-dir', dataDir(), '--trust-project'])
    expect(result.stderr).toBe('')
    const lines = result.stdout.trim().split('\n')
    // The one note: the stand-in server has a tool whose schema is too big to offer, and the rest still work.
    expect(lines.filter((line) => /^[✗!]/.test(line))).toEqual(['! MCP server: helper: tool huge left out: its input schema is 41,032 characters (at most 16,000)'])
    for (const title of ['Project files parse', 'Test cases', 'Approval', 'Database', 'MCP server', 'Model server', 'Context window', 'Output cap', 'Tool calling', 'Exact token counts', 'Store']) {
      expect(lines.some((line) => line.startsWith(`✓ ${title}: `)), title).toBe(true)
    }
    expect(result.stdout).toMatch(/✓ Database: duckdb-jaffle-shop \(duckdb, jaffle_shop\.duckdb\) answers and is read-only/)
    expect(result.stdout).toMatch(/✓ Context window: scripted-model at http:\/\/127\.0\.0\.1:\d+\/v1: 32,768 tokens \(llama\.cpp \/props n_ctx\); this project's request needs [\d,]+ \(system prompt/)
    // The numbers on the line agree with each other: the need is the sum of the parts it names, and what is left is the window less it.
    const windowLine = /needs ([\d,]+) \(system prompt ([\d,]+) \+ tools ([\d,]+) \+ user-prompt template ([\d,]+) \+ answer reserve ([\d,]+) \+ margin ([\d,]+)\), leaving ([\d,]+) for/.exec(result.stdout)
    expect(windowLine).not.toBeNull()
    const [need, ...parts] = windowLine!.slice(1, 7).map((figure) => Number(figure.replaceAll(',', '')))
    expect(parts.every((tokens) => tokens >= 0)).toBe(true)
    expect(parts[2]).toBeGreaterThan(0)
    expect(parts.reduce((total, tokens) => total + tokens, 0)).toBe(need)
    expect(Number(windowLine![7].replaceAll(',', ''))).toBe(32_768 - need)
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
    expect(result.stdout.indexOf('\n')).toBe(result.stdout.length - 1)
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
        detail: expect.stringMatching(new RegExp(`^scripted-model at ${small.url.replaceAll('.', '\\.')}: the window is 1,024 tokens \\(llama\\.cpp /props n_ctx\\), smaller than the [\\d,]+ this project's request needs \\(system prompt [\\d,]+ \\+ tools [\\d,]+ \\+ user-prompt template [\\d,]+ \\+ answer reserve 256 \\+ margin 52\\)$`)),
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
    // The run used a throwaway store: an approval given earlier could not be seen, and the line says so.
    expect(result.stdout).toMatch(/^✗ Approval: not approved: start the process `npx -y @getnao\/metabase-mcp-server@latest`.* \(earlier approvals could not be read: the store is not usable, see its line\)$/m)
  }, 120_000)
})

/** A project naming a Postgres server (password from the environment) and MCP servers from agent/mcps/mcp.json. */
function serverProject(port: number, mcpServers: Record<string, unknown>): string {
  const temp = makeTempDir('glassbox-doctor-trust-')
  cleanups.push(temp.cleanup)
  mkdirSync(join(temp.dir, 'agent/mcps'), { recursive: true })
  writeFileSync(join(temp.dir, 'nao_config.yaml'), `${postgresConfig(port)}mcp:\n  json_file_path: ./agent/mcps/mcp.json\n`)
  writeFileSync(join(temp.dir, 'agent/mcps/mcp.json'), JSON.stringify({ mcpServers }))
  return temp.dir
}

/** A TCP listener on loopback that counts who connects (and hangs up on them): the server that must hear nothing. */
async function countingListener(): Promise<{ port: number; connections: () => number }> {
  let connections = 0
  const sockets = new Set<Socket>()
  const listener = createServer((socket) => {
    connections += 1
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.destroy()
  })
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
  const address = listener.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => listener.close(resolve))
  })
  return { port: address.port, connections: () => connections }
}

const SCRIPT = '/usr/bin/script'

/** `glassbox` on a pseudo-terminal (util-linux `script`): answers the yes/no question once it is asked. */
function doctorOnTerminal(args: string[], answer: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const command = ['node', 'bin/glassbox.js', ...args].map((part) => `'${part}'`).join(' ')
    const child = spawn(SCRIPT, ['-qec', command, '/dev/null'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
    let output = ''
    let answered = false
    const guard = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`no end on the terminal; it printed:\n${output}`))), 90_000)
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (!answered && output.includes('[y/N]')) {
        answered = true
        child.stdin.write(`${answer}\n`)
      }
    })
    child.on('close', () => {
      clearTimeout(guard)
      child.stdin.destroy()
      resolve(output)
    })
  })
}

describe('glassbox doctor and what the project asks beyond its folder', () => {
  it('names each unapproved request with its fix, connects to no server and starts no MCP server; a failing server shows its stderr', async () => {
    const postgres = await countingListener()
    const marker = join(dataDir(), 'started')
    const dir = serverProject(postgres.port, {
      helper: { command: process.execPath, args: [MCP_TEST_SERVER], env: { MCP_TEST_MARKER: marker } }
    })
    const model = await llamaServer(32_768)
    const result = await glassbox(['doctor', '--project', dir, '--endpoint', model.url, '--model', 'scripted-model', '--data-dir', dataDir(), '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(1)
    const report: DoctorReport = JSON.parse(result.stdout)
    const fix = 'Approve it in Settings → Project trust, or run with --trust-project.'
    const asked = `connect to 127.0.0.1:${postgres.port} (postgres database shop) as ${ANALYST.user} with $GLASSBOX_TEST_PG_PASSWORD`
    const command = `${process.execPath} ${MCP_TEST_SERVER}`
    expect(report.lines.filter((line) => line.status === 'fail')).toEqual([
      { id: 'approval', title: 'Approval', status: 'fail', detail: `not approved: ${asked}. Nothing is sent or started until it is`, fix },
      { id: 'approval', title: 'Approval', status: 'fail', detail: `not approved: start the process \`${command}\` (environment: MCP_TEST_MARKER=${marker}). Nothing is sent or started until it is`, fix },
      { id: 'database', title: 'Database', status: 'fail', detail: `warehouse (postgres, 127.0.0.1:${postgres.port}/shop) is not approved, so Glassbox did not connect: this project asks to ${asked}`, fix },
      { id: 'mcp-server', title: 'MCP server', status: 'fail', detail: `helper: not approved, so not started: \`${command}\``, fix }
    ])
    expect(postgres.connections()).toBe(0)
    expect(existsSync(marker)).toBe(false)
  }, 120_000)

  it('says why an approved MCP server failed, with the end of its stderr and the fix', async () => {
    const postgres = await countingListener()
    const dir = serverProject(postgres.port, {
      broken: { command: process.execPath, args: ['-e', 'console.error("config error: API_KEY is not set"); process.exit(3)'] },
      keyless: { command: process.execPath, args: [MCP_TEST_SERVER], env: { TEST_TOKEN: '${GLASSBOX_DOCTOR_UNSET_TOKEN}' } }
    })
    process.env.GLASSBOX_TEST_PG_PASSWORD = 'not-the-password'
    cleanups.push(() => void delete process.env.GLASSBOX_TEST_PG_PASSWORD)
    const result = await glassbox(['doctor', '--project', dir, '--endpoint', `http://127.0.0.1:${await unusedLoopbackPort()}/v1`, '--data-dir', dataDir(), '--trust-project', '--json'])
    const report: DoctorReport = JSON.parse(result.stdout)
    const mcp = report.lines.filter((line) => line.id === 'mcp-server')
    expect(mcp).toEqual([
      {
        id: 'mcp-server',
        title: 'MCP server',
        status: 'fail',
        detail: expect.stringMatching(/^broken: failed: could not start: .*; its stderr ends: config error: API_KEY is not set$/),
        fix: expect.stringMatching(/^Fix the server's command, args or env in agent\/mcps\/mcp\.json \(its stderr is above\)/)
      },
      {
        id: 'mcp-server',
        title: 'MCP server',
        status: 'fail',
        detail: 'keyless: failed: could not start: the environment variable GLASSBOX_DOCTOR_UNSET_TOKEN is not set',
        fix: "Set GLASSBOX_DOCTOR_UNSET_TOKEN in the environment Glassbox is started from (the shell, or the app's launcher), then check again."
      }
    ])
    // --trust-project approved the connection: the doctor then tried it (and this listener is no Postgres).
    expect(report.lines.filter((line) => line.id === 'approval').map((line) => line.status)).toEqual(['pass', 'pass', 'pass'])
    expect(postgres.connections()).toBeGreaterThan(0)
  }, 120_000)

  it.skipIf(!existsSync(SCRIPT))('on a terminal it asks, as the other commands do: a "no" connects to nothing, a "yes" approves and connects', async () => {
    const postgres = await countingListener()
    const temp = makeTempDir('glassbox-doctor-tty-')
    cleanups.push(temp.cleanup)
    writeFileSync(join(temp.dir, 'nao_config.yaml'), `databases:\n  - {name: warehouse, type: postgres, host: 127.0.0.1, port: ${postgres.port}, database: shop, user: analyst}\n`)
    const store = dataDir()
    const down = `http://127.0.0.1:${await unusedLoopbackPort()}/v1`
    const onTerminal = (answer: string) => doctorOnTerminal(['doctor', '--project', temp.dir, '--endpoint', down, '--data-dir', store], answer)
    const refused = await onTerminal('n')
    expect(refused).toContain(`This project asks to connect to 127.0.0.1:${postgres.port} (postgres database shop) as analyst.\r\nApprove it for this project? [y/N]`)
    expect(refused).toContain(`✗ Approval: not approved: connect to 127.0.0.1:${postgres.port} (postgres database shop) as analyst. Nothing is sent or started until it is`)
    expect(postgres.connections()).toBe(0)
    const approved = await onTerminal('y')
    expect(approved).toContain(`✓ Approval: approved: connect to 127.0.0.1:${postgres.port} (postgres database shop) as analyst\r\n`)
    expect(postgres.connections()).toBeGreaterThan(0)
    // Stored like the dialog's approval: the next run does not ask.
    expect(await onTerminal('')).not.toContain('Approve it for this project?')
  }, 120_000)

  it.skipIf(!postgresAvailable())('approved and working: the Postgres server and the MCP server are ✓, with --trust-project and on later runs', async () => {
    const cluster = await startPostgres(SHOP_SQL)
    cleanups.push(() => cluster.stop())
    process.env.GLASSBOX_TEST_PG_PASSWORD = ANALYST.password
    cleanups.push(() => void delete process.env.GLASSBOX_TEST_PG_PASSWORD)
    const dir = serverProject(cluster.port, { helper: { command: process.execPath, args: [MCP_TEST_SERVER] } })
    const model = await llamaServer(32_768)
    const store = dataDir()
    const doctor = (...extra: string[]) => glassbox(['doctor', '--project', dir, '--endpoint', model.url, '--model', 'scripted-model', '--data-dir', store, ...extra])
    for (const result of [await doctor('--trust-project'), await doctor()]) {
      expect(result.stderr).toBe('')
      const lines = result.stdout.trim().split('\n')
      expect(lines.filter((line) => /^[✗]/.test(line))).toEqual([])
      expect(result.stdout).toContain(`✓ Approval: approved: connect to 127.0.0.1:${cluster.port} (postgres database shop) as ${ANALYST.user} with $GLASSBOX_TEST_PG_PASSWORD\n`)
      expect(result.stdout).toContain(`✓ Approval: approved: start the process \`${process.execPath} ${MCP_TEST_SERVER}\`\n`)
      expect(result.stdout).toMatch(new RegExp(`✓ Database: warehouse \\(postgres, 127\\.0\\.0\\.1:${cluster.port}/shop\\) answers and is read-only`))
      expect(result.stdout).toMatch(/✓ MCP server: helper: ready with 5 tools \(helper__echo, helper__fail, helper__hang, helper__big, helper__secret\)/)
      expect(result.code).toBe(0)
    }
  }, 180_000)
})
