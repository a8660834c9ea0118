import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { runCli } from '../../../test/support/capture-io'
import { isAgentRequest, latestTurn, startScriptedServer } from '../../../test/support/scripted-openai-server'
import { nextTestCaseFile, saveTestCase, testCaseSlug, testCaseYaml } from './save-test-case'
import { loadTestCases } from './test-cases'

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function project(): string {
  const temp = makeTempDir('glassbox-save-case-')
  cleanups.push(temp.cleanup)
  return temp.dir
}

describe('saving a test case', () => {
  it('writes what loadTestCases reads back, database included', async () => {
    const root = project()
    const file = saveTestCase(root, { name: 'Orders in 2018?', prompt: 'How many orders in 2018?', sql: 'SELECT count(*)\nFROM orders', database: 'shop' })
    expect(file).toBe('tests/orders_in_2018.yml')
    expect(await loadTestCases(root)).toEqual([
      { file: 'tests/orders_in_2018.yml', name: 'Orders in 2018?', prompt: 'How many orders in 2018?', sql: ['SELECT count(*)\nFROM orders'], database: 'shop', extraColumns: 'ignore', duplicates: 'count' }
    ])
  })

  it('never overwrites: a taken name gets -2, -3, and the preview names the file it will write', () => {
    const root = project()
    mkdirSync(join(root, 'tests'))
    writeFileSync(join(root, 'tests/total.yml'), 'kept')
    expect(nextTestCaseFile(root, 'total')).toBe('tests/total-2.yml')
    expect(saveTestCase(root, { name: 'total', prompt: 'p', sql: 'SELECT 1' })).toBe('tests/total-2.yml')
    expect(saveTestCase(root, { name: 'total', prompt: 'p', sql: 'SELECT 2' })).toBe('tests/total-3.yml')
    expect(readFileSync(join(root, 'tests/total.yml'), 'utf8')).toBe('kept')
  })

  it('refuses a tests/ folder that links outside the project', () => {
    const root = project()
    const outside = project()
    symlinkSync(outside, join(root, 'tests'))
    expect(() => saveTestCase(root, { name: 'x', prompt: 'p', sql: 'SELECT 1' })).toThrow('tests/ leads outside the project folder')
  })

  it('slugs any text into a file name, and quotes YAML that needs it', () => {
    expect(testCaseSlug('Revenue: by month (2018)!')).toBe('revenue_by_month_2018')
    expect(testCaseSlug('¿¿??')).toBe('case')
    expect(testCaseYaml({ name: 'a: b', prompt: '- list?', sql: 'SELECT 1' })).toBe('name: "a: b"\nprompt: "- list?"\nsql: |\n  SELECT 1\n')
  })
})

describe('a case that names its database', () => {
  it('runs its expected SQL there, not on the first database', async () => {
    const root = project()
    for (const [file, rows] of [['first.duckdb', 3], ['second.duckdb', 7]] as const) {
      const instance = await DuckDBInstance.create(join(root, file))
      const connection = await instance.connect()
      await connection.run(`CREATE TABLE t AS SELECT range AS id FROM range(${rows})`)
      connection.closeSync()
      instance.closeSync()
    }
    writeFileSync(join(root, 'nao_config.yaml'), 'databases:\n- {name: first, type: duckdb, path: first.duckdb}\n- {name: second, type: duckdb, path: second.duckdb}\n')
    saveTestCase(root, { name: 'count', prompt: 'How many in second?', sql: 'SELECT count(*) FROM t', database: 'second' })
    const server = await startScriptedServer({
      script: (request) =>
        !isAgentRequest(request) ? { text: '{}' }
        : latestTurn(request).toolResults.length === 0 ? { toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT count(*) FROM t', database_id: 'second' } }] }
        : { text: '7' }
    })
    const data = project()
    try {
      const result = await runCli(['test', '--project', root, '--endpoint', server.url, '--model', 'scripted-model', '--data-dir', data, '--json'])
      expect(JSON.parse(result.stdout).cases[0]).toMatchObject({ status: 'passed', expected: [['7']] })
    } finally {
      await server.close()
    }
  }, 60_000)
})
