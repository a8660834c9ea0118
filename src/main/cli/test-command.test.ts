import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { NAO_LAYOUT, copyNaoLayout } from '../../../test/support/fixtures'
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
    expect(lines[2]).toBe('1 passed, 0 failed, 1 errored')
  })

  it('refuses a project without tests in one line', async () => {
    const project = copyNaoLayout()
    cleanups.push(project.cleanup)
    const { io, out, err } = captureIo()
    const code = await main(['test', '--project', join(project.dir, 'docs')], io)
    expect(code).toBe(1)
    expect(err()).toMatch(/^glassbox test: no test cases: .*\/docs\/tests\/ has no \.yml files\n$/)
  })
})
