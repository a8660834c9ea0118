import { spawn } from 'node:child_process'
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { captureIo } from '../../../../test/support/capture-io'
import { makeTempDir, REPO_ROOT } from '../../../../test/support/fixtures'
import { ANALYST, postgresAvailable, postgresConfig, SHOP_SQL, startPostgres, type PostgresCluster } from '../../../../test/support/postgres-server'
import { startScriptedServer, type ScriptedServer } from '../../../../test/support/scripted-openai-server'
import { writeFilesProject } from '../../engines/files/data-files.testing'
import { main } from '../../cli'

// The agent answers from a CSV, a Parquet file and a live Postgres through the real execute_sql path
// (scripted model, real HTTP + SSE, the real `ask` command), and a DuckDB logging call cannot pollute
// `ask --json` or take the process down (#11 B1).

let server: ScriptedServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function ask(project: string, dataDir: string, sql: string, databaseId: string, answer: string, extraArgs: string[] = []): Promise<{ printed: Record<string, unknown>; second: string }> {
  server = await startScriptedServer({
    script: [{ toolCalls: [{ name: 'execute_sql', args: { sql_query: sql, database_id: databaseId } }] }, { text: answer }]
  })
  const { io, out } = captureIo()
  const code = await main(['ask', '--project', project, '--question', 'How much?', '--endpoint', server.url, '--model', 'scripted-model', '--data-dir', dataDir, '--json', ...extraArgs], io)
  expect(code).toBe(0)
  return { printed: JSON.parse(out()), second: JSON.stringify(server.chatRequests()[1].body) }
}

describe('the agent answers from data files in the project', () => {
  let temp: ReturnType<typeof makeTempDir>
  beforeAll(async () => {
    temp = makeTempDir()
    await writeFilesProject(join(temp.dir, 'project'))
  })
  afterAll(() => temp.cleanup())

  it('from a CSV', async () => {
    const { printed, second } = await ask(join(temp.dir, 'project'), join(temp.dir, 'data'), 'SELECT sum(amount) AS revenue FROM sales', 'sales', 'Revenue is 60.5.')
    expect(printed).toMatchObject({ answer: 'Revenue is 60.5.', toolCalls: [{ name: 'execute_sql', ok: true }] })
    expect(second).toContain('| 60.5 |')
  })

  it('from a Parquet file', async () => {
    const { printed, second } = await ask(join(temp.dir, 'project'), join(temp.dir, 'data'), "SELECT count(*) AS n FROM read_parquet('data/items/*.parquet')", 'items', 'There are 3000 items.')
    expect(printed).toMatchObject({ toolCalls: [{ name: 'execute_sql', ok: true }] })
    expect(second).toContain('| 3000 |')
  })
})

// Skipped, with a one-line install hint, where Postgres is not installed; CI requires it (GLASSBOX_REQUIRE_POSTGRES).
const pgAvailable = postgresAvailable()

describe.skipIf(!pgAvailable)('the agent answers from a live Postgres', () => {
  let cluster: PostgresCluster
  let temp: ReturnType<typeof makeTempDir>
  beforeAll(async () => {
    cluster = await startPostgres(SHOP_SQL)
    temp = makeTempDir()
    process.env.GLASSBOX_TEST_PG_PASSWORD = ANALYST.password
    writeFileSync(join(temp.dir, 'nao_config.yaml'), postgresConfig(cluster.port))
  }, 120_000)
  afterAll(async () => {
    temp?.cleanup()
    await cluster?.stop()
  })

  it('through execute_sql, and the password reaches neither the model, the output nor the store', async () => {
    const dataDir = join(temp.dir, '.glassbox-data')
    const { printed, second } = await ask(temp.dir, dataDir, "SELECT count(*) AS n FROM orders WHERE region = 'north'", 'warehouse', 'There are 100 north orders.', ['--trust-project'])
    expect(printed).toMatchObject({ answer: 'There are 100 north orders.', toolCalls: [{ name: 'execute_sql', ok: true }] })
    expect(second).toContain('| 100 |')
    const everything = [JSON.stringify(printed), ...(server?.chatRequests().map((request) => JSON.stringify(request.body)) ?? [])]
    for (const file of readdirSync(dataDir, { recursive: true, encoding: 'utf8' })) {
      const path = join(dataDir, file)
      if (statSync(path).isFile()) everything.push(readFileSync(path).toString('latin1'))
    }
    for (const text of everything) expect(text).not.toContain(ANALYST.password)
  })
})

describe('a DuckDB logging call through the agent (#11 B1)', () => {
  let temp: ReturnType<typeof makeTempDir>
  beforeAll(async () => {
    temp = makeTempDir()
    await writeFilesProject(join(temp.dir, 'project'))
  })
  afterAll(() => temp.cleanup())

  it("neither aborts the process nor writes to stdout of `ask --json` (a real child process)", async () => {
    server = await startScriptedServer({
      script: [
        { toolCalls: [{ name: 'execute_sql', args: { sql_query: "CALL enable_logging(storage='stdout')" } }] },
        { toolCalls: [{ name: 'execute_sql', args: { sql_query: "CALL enable_logging(storage='file', storage_path='logs')" } }] },
        { toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT 42 AS answer' } }] },
        { text: 'The answer is 42.' }
      ]
    })
    const args = ['--tsconfig', 'tsconfig.node.json', 'src/main/cli.ts', 'ask', '--project', join(temp.dir, 'project'), '--question', 'q']
    args.push('--endpoint', server.url, '--model', 'scripted-model', '--data-dir', join(temp.dir, 'data'), '--json')
    const child = spawn(join(REPO_ROOT, 'node_modules/.bin/tsx'), args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code, stderr).toBe(0)
    const printed = JSON.parse(stdout)
    expect(printed.answer).toBe('The answer is 42.')
    expect(printed.toolCalls.map((call: { ok: boolean }) => call.ok)).toEqual([false, false, true])
    expect(stdout).not.toMatch(/QueryLog|CONNECTION/)
  }, 60_000)
})
