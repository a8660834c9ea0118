import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { NAO_LAYOUT, copyNaoLayout, makeTempDir } from '../../../test/support/fixtures'
import { evaluationProject, startTwoModelServer, twoModelScript } from '../../../test/support/two-model-evaluation'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { main } from '../cli'
import { captureIo } from '../../../test/support/capture-io'

let server: ScriptedServer | undefined
const cleanups: (() => void)[] = []
afterEach(async () => {
  await server?.close()
  server = undefined
  cleanups.splice(0).forEach((cleanup) => cleanup())
})

/** The model runs `sql` with execute_sql, then answers in words. */
function modelRunning(sql: string): Promise<ScriptedServer> {
  return startScriptedServer({
    script: [{ toolCalls: [{ name: 'execute_sql', args: { sql_query: sql } }] }, { text: 'The total revenue is 1734.' }]
  })
}

describe('glassbox test', () => {
  it('--json reports total_revenue passed when the model runs the right SQL', async () => {
    server = await modelRunning('SELECT SUM(amount) AS revenue FROM orders')
    const { io, out, err } = captureIo()
    const code = await main(['test', '--project', NAO_LAYOUT, '--endpoint', server.url, '--json'], io)
    expect(err()).toBe('')
    expect(code).toBe(0)
    const report = JSON.parse(out())
    expect(report).toMatchObject({ passed: 1, failed: 0, errored: 0 })
    expect(report.cases[0]).toMatchObject({
      name: 'total_revenue',
      status: 'passed',
      expected: [[1734]],
      actual: [[1734]],
      sql: 'SELECT SUM(amount) AS revenue FROM orders',
      runId: expect.any(String),
      tokens: 220
    })
    expect(report.cases[0].ms).toEqual(expect.any(Number))
  })

  it('--json reports total_revenue failed when the model runs a wrong SQL', async () => {
    server = await modelRunning("SELECT SUM(amount) FROM orders WHERE status = 'completed'")
    const { io, out, err } = captureIo()
    const code = await main(['test', '--project', NAO_LAYOUT, '--endpoint', server.url, '--json'], io)
    expect(code).toBe(1)
    expect(err()).toBe('')
    const report = JSON.parse(out())
    expect(report).toMatchObject({ passed: 0, failed: 1, errored: 0 })
    expect(report.cases[0]).toMatchObject({ status: 'failed', expected: [[1734]], message: expect.stringContaining('[1734]') })
  })

  it('prints one line per case and a summary without --json, errors included', async () => {
    const project = copyNaoLayout()
    cleanups.push(project.cleanup)
    writeFileSync(join(project.dir, 'tests/broken.yml'), 'name: broken\nprompt: [\n')
    server = await modelRunning('SELECT 1734')
    const { io, out, err } = captureIo()
    const code = await main(['test', '--project', project.dir, '--endpoint', server.url], io)
    expect(code).toBe(1)
    const lines = out().trim().split('\n')
    expect(lines[0]).toMatch(/^ERROR broken \(0 ms, 0 tokens\): tests\/broken\.yml is not valid YAML: /)
    expect(lines[1]).toMatch(/^PASS total_revenue \(\d+ ms, 220 tokens\)$/)
    expect(lines[2]).toBe('  verdict: passed: same rows in any order (the question asks for none); both ran on duckdb-jaffle-shop')
    expect(lines[3]).toBe('1 passed, 0 failed, 1 errored')
    // Progress goes to stderr, one line per case.
    expect(err().trim().split('\n')).toEqual([expect.stringMatching(/^… case 1 of 2 · model 1 of 1 \(scripted-model\)/), expect.stringMatching(/^… case 2 of 2 · model 1 of 1 \(scripted-model\)/)])
  })

  it('refuses a project without tests in one line', async () => {
    const project = copyNaoLayout()
    cleanups.push(project.cleanup)
    const { io, out, err } = captureIo()
    const code = await main(['test', '--project', join(project.dir, 'docs')], io)
    expect(code).toBe(1)
    expect(err()).toMatch(/^glassbox test: no test cases: .*\/docs\/tests\/ has no \.yml files\n$/)
    expect(out()).toBe('')
  })
})

describe('glassbox test with several models', () => {
  it('runs the suite per model and prints the matrix, stored runs, a comparison with the prompt diff, and the audit', async () => {
    const project = evaluationProject()
    cleanups.push(project.cleanup)
    server = await startTwoModelServer()
    const dataDir = makeTempDir('glassbox-eval-data-')
    cleanups.push(dataDir.cleanup)
    const common = ['--project', project.dir, '--data-dir', dataDir.dir]

    const first = captureIo()
    expect(await main(['test', ...common, '--endpoint', server.url, '--model', 'half', '--model', `${server.url}#all`, '--json'], first.io)).toBe(1)
    const matrixRun = JSON.parse(first.out())
    expect(matrixRun.runs.map((run: { model: string; passed: number; failed: number }) => [run.model, run.passed, run.failed])).toEqual([
      ['half', 2, 2],
      ['all', 4, 0]
    ])
    expect(matrixRun.matrix.models.map((model: { passRate: number }) => model.passRate)).toEqual([0.5, 1])
    const failing = matrixRun.runs[0].cases.find((item: { name: string }) => item.name === 'total_revenue')
    expect(failing).toMatchObject({ outcome: 'failed: wrong result', status: 'failed', rounds: 2, sql: 'SELECT COUNT(*) AS revenue FROM orders', runId: expect.any(String) })
    expect(failing.audit).toEqual({
      filesRead: ['databases/type=duckdb/database=shop/schema=main/table=orders/description.md'],
      tables: [{ table: 'main.orders', dir: 'databases/type=duckdb/database=shop/schema=main/table=orders', unread: ['columns.md'] }]
    })

    const human = captureIo()
    expect(await main(['test', ...common, '--model', `${server.url}#half`, '--model', `${server.url}#all`], human.io)).toBe(1)
    expect(human.out()).toContain('[half 1/2] FAIL total_revenue (')
    expect(human.out()).toContain('  context read: databases/type=duckdb/database=shop/schema=main/table=orders/description.md; never read: columns.md of main.orders\n')
    expect(human.out()).toMatch(/pass rate\s+50% \(2\/4\)\s+100% \(4\/4\)/)
    expect(human.err()).toMatch(/^… case 1 of 4 · model 1 of 2 \(half\) · \d+\.\d s elapsed\n/)

    project.addRule()
    const fixed = captureIo()
    expect(await main(['test', ...common, '--endpoint', server.url, '--model', 'half', '--json'], fixed.io)).toBe(0)
    const single = JSON.parse(fixed.out())
    expect(single).toMatchObject({ passed: 4, failed: 0, errored: 0 })
    expect(Object.keys(single)).toEqual(['evaluationId', 'passed', 'failed', 'errored', 'cases'])

    const history = captureIo()
    await main(['test', ...common, '--history', '--json'], history.io)
    const evaluations = JSON.parse(history.out())
    expect(evaluations.map((item: { models: unknown[] }) => item.models.length)).toEqual([1, 2, 2])

    const compared = captureIo()
    expect(await main(['test', ...common, '--compare', matrixRun.evaluationId, single.evaluationId], compared.io)).toBe(0)
    expect(compared.out()).toContain('Fixed (2):\n  total_revenue [half]: failed: wrong result → passed\n  return_rate [half]: failed: wrong result → passed\nBroke (0):\nSystem prompt diff:\n')
    expect(compared.out()).toContain('+ - Before querying a table, read its columns.md.\n')
  }, 60_000)
})

describe('glassbox test: which server serves a model', () => {
  it('sends each plain --model to the --endpoint that serves it, and refuses one that none serves', async () => {
    const project = evaluationProject()
    cleanups.push(project.cleanup)
    const data = makeTempDir('glassbox-eval-data-')
    cleanups.push(data.cleanup)
    const halfServer = await startScriptedServer({ script: twoModelScript, models: [{ id: 'half' }] })
    const allServer = await startScriptedServer({ script: twoModelScript, models: [{ id: 'all' }] })
    cleanups.push(() => void halfServer.close(), () => void allServer.close())
    const common = ['test', '--project', project.dir, '--data-dir', data.dir, '--endpoint', halfServer.url, '--endpoint', allServer.url]

    const { io, out } = captureIo()
    expect(await main([...common, '--model', 'all', '--model', 'half', '--json'], io)).toBe(1)
    const report = JSON.parse(out())
    expect(report.runs.map((run: { model: string; endpoint: string; passed: number }) => [run.model, run.endpoint, run.passed])).toEqual([
      ['all', allServer.url, 4],
      ['half', halfServer.url, 2]
    ])
    expect(halfServer.chatRequests().length).toBeGreaterThan(0)
    expect(allServer.chatRequests().length).toBeGreaterThan(0)

    const missing = captureIo()
    expect(await main([...common, '--model', 'ghost'], missing.io)).toBe(1)
    expect(missing.err()).toBe(`glassbox test: --model ghost: none of the endpoints serves it (${halfServer.url}, ${allServer.url}); use --model URL#ghost\n`)
  }, 60_000)
})

describe('glassbox test and a server the project names', () => {
  it('without approval, a case on that server errors with what the project asks, and the server receives nothing', async () => {
    let connections = 0
    const listener = createServer((socket) => {
      connections += 1
      socket.destroy()
    })
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => void listener.close())
    const address = listener.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    mkdirSync(join(temp.dir, 'tests'))
    writeFileSync(join(temp.dir, 'nao_config.yaml'), `databases:\n  - {name: warehouse, type: postgres, host: 127.0.0.1, port: ${address.port}, database: analytics, user: analyst}\n`)
    writeFileSync(join(temp.dir, 'tests/orders.yml'), 'name: orders\nprompt: How many orders?\nsql: SELECT count(*) FROM orders\ndatabase: warehouse\n')
    server = await startScriptedServer({ script: [{ toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT count(*) FROM orders', database_id: 'warehouse' } }] }, { text: 'I could not count them.' }] })
    const { io, out } = captureIo()
    const code = await main(['test', '--project', temp.dir, '--endpoint', server.url, '--model', 'scripted-model', '--json'], io)
    expect(code).toBe(1)
    const report = JSON.parse(out())
    expect(report.cases[0].status).toBe('error')
    expect(JSON.stringify(report.cases[0])).toContain(`This project asks to connect to 127.0.0.1:${address.port} (postgres database analytics) as analyst. Nothing was sent`)
    expect(connections).toBe(0)
    // Approved, the same evaluation does reach it (the model's query and the expected SQL both may).
    const approved = captureIo()
    await main(['test', '--project', temp.dir, '--endpoint', server.url, '--model', 'scripted-model', '--json', '--trust-project'], approved.io)
    expect(connections).toBeGreaterThan(0)
  })
})
