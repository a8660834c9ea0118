import { DuckDBInstance } from '@duckdb/node-api'
import Database from 'better-sqlite3'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureIo } from '../../../test/support/capture-io'
import { makeTempDir } from '../../../test/support/fixtures'
import { latestTurn, startScriptedServer, type RecordedRequest, type ScriptedServer, type Turn } from '../../../test/support/scripted-openai-server'
import pg from 'pg'
import { ANALYST, postgresAvailable, startPostgres, type PostgresCluster } from '../../../test/support/postgres-server'
import type { EvaluationCaseResult } from '../../shared/api'
import { main } from '../cli'
import { createGlassbox, type Glassbox } from './create-glassbox'

// A project with two databases — restaurants in DuckDB and publications in SQLite, then the same as two
// Postgres databases — evaluated end to end (`glassbox test --json`, the app's runEvaluation) against a scripted "oracle" model that answers each case with SQL chosen here (not
// the case's own). Each case's expected SQL must run on its own database: the one the case names, else the
// one the model's last query ran on; a case that can tell neither errors with the choices.

let temp: ReturnType<typeof makeTempDir>
let server: ScriptedServer

/** What the oracle runs per question: SQL and the database it names. */
const ORACLE: Record<string, { sql: string; database?: string } | null> = {
  'How many restaurants are in Paris?': { sql: "SELECT COUNT(*) AS n FROM restaurant WHERE city = 'Paris'", database: 'restaurants' },
  'What is the total number of publications in each year?': { sql: 'SELECT COUNT(*) AS papers, year FROM publication GROUP BY year ORDER BY year DESC', database: 'academic' },
  "Who wrote 'Query graphs'?": { sql: "SELECT w.aid FROM writes w JOIN publication p ON p.pid = w.pid WHERE p.title = 'Query graphs'", database: 'academic' },
  'How many authors are there?': { sql: 'SELECT COUNT(*) FROM restaurant', database: 'restaurants' },
  'Which restaurant is rated best?': null,
  'What is the best rating?': { sql: 'SELECT MAX(rating) FROM restaurant' }
}

function oracle(request: RecordedRequest): Turn {
  const { question, toolResults } = latestTurn(request)
  const asked = Object.keys(ORACLE).find((candidate) => question.includes(candidate))
  const answer = asked === undefined ? null : ORACLE[asked]
  if (toolResults.length > 0 || !answer) return { text: 'Here is the answer.' }
  return { toolCalls: [{ name: 'execute_sql', args: { sql_query: answer.sql, ...(answer.database ? { database_id: answer.database } : {}) } }] }
}

const RESTAURANTS_SQL = `CREATE TABLE restaurant (id INTEGER, name TEXT, city TEXT, rating REAL);
  INSERT INTO restaurant VALUES (1, 'Chez Ada', 'Paris', 4.5), (2, 'Turing Grill', 'London', 4.8), (3, 'Hopper Deli', 'Paris', 3.9), (4, 'Lambda Bar', 'Rome', 4.1);`
const ACADEMIC_SQL = `CREATE TABLE author (aid INTEGER, name TEXT); INSERT INTO author VALUES (1, 'Ada Lovelace'), (2, 'Alan Turing'), (5, 'Barbara Liskov');
  CREATE TABLE publication (pid INTEGER, title TEXT, year INTEGER); INSERT INTO publication VALUES (1, 'Notes on engines', 2019), (7, 'Query graphs', 2021), (8, 'Learned indexes', 2021);
  CREATE TABLE writes (aid INTEGER, pid INTEGER); INSERT INTO writes VALUES (1, 1), (1, 7), (5, 7), (2, 8);`

/** The seven cases, the same on every engine. */
const CASES: Record<string, string> = {
  '1_paris.yml': "name: paris\nprompt: How many restaurants are in Paris?\ncategory: filter\nsql: SELECT COUNT(*) FROM restaurant WHERE city = 'Paris'\n",
  '2_per_year.yml': 'name: per_year\nprompt: What is the total number of publications in each year?\ncategory: group_by\nsql: SELECT year, COUNT(*) AS publications FROM publication GROUP BY year ORDER BY year\n',
  '3_author.yml': "name: author\nprompt: Who wrote 'Query graphs'?\ndatabase: academic\ncategory: join\nsql:\n  - SELECT a.name FROM author a JOIN writes w ON w.aid = a.aid JOIN publication p ON p.pid = w.pid WHERE p.title = 'Query graphs'\n  - SELECT w.aid FROM writes w JOIN publication p ON p.pid = w.pid WHERE p.title = 'Query graphs'\n",
  '4_wrong_database.yml': 'name: wrong_database\nprompt: How many authors are there?\ndatabase: academic\nsql: SELECT COUNT(*) FROM author\n',
  '5_no_query.yml': 'name: no_query\nprompt: Which restaurant is rated best?\nsql: SELECT name FROM restaurant ORDER BY rating DESC LIMIT 1\n',
  '6_unknown.yml': 'name: unknown\nprompt: Which restaurant is rated best?\ndatabase: warehouse\nsql: SELECT 1\n',
  '7_default.yml': 'name: default_database\nprompt: What is the best rating?\nsql: SELECT MAX(rating) FROM restaurant\n'
}

function writeCases(root: string): void {
  mkdirSync(join(root, 'tests'), { recursive: true })
  for (const [file, text] of Object.entries(CASES)) writeFileSync(join(root, 'tests', file), text)
}

beforeAll(async () => {
  temp = makeTempDir('glassbox-two-databases-')
  const root = join(temp.dir, 'project')
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, 'nao_config.yaml'), 'project_name: two\ndatabases:\n  - {name: restaurants, type: duckdb, path: restaurants.duckdb}\n  - {name: academic, type: sqlite, path: academic.sqlite}\n')
  const duck = await DuckDBInstance.create(join(root, 'restaurants.duckdb'))
  const connection = await duck.connect()
  await connection.run(RESTAURANTS_SQL)
  connection.closeSync()
  duck.closeSync()
  const sqlite = new Database(join(root, 'academic.sqlite'))
  sqlite.exec(ACADEMIC_SQL)
  sqlite.close()
  writeCases(root)
  server = await startScriptedServer({ script: oracle })
}, 60_000)

afterAll(async () => {
  await server?.close()
  temp?.cleanup()
})

type Judged = Record<string, EvaluationCaseResult>

/** What holds on every engine: each case judged where it belongs, and the choices named when that is unknown. */
function expectEachOnItsOwnDatabase(byName: Judged): void {
  expect(byName.paris).toMatchObject({ outcome: 'passed', rule: 'rows-any-order', databases: { expected: 'restaurants', actual: 'restaurants' }, category: 'filter', verdict: expect.stringMatching(/; both ran on restaurants$/) })
  expect(byName.per_year).toMatchObject({ outcome: 'passed', databases: { expected: 'academic', actual: 'academic' }, verdict: expect.stringMatching(/^passed: same rows in any order \(the expected SQL orders, but the question asks for none\); columns matched by content in another order.*; both ran on academic$/) })
  expect(byName.author).toMatchObject({ outcome: 'passed', matchedSql: 2, category: 'join', verdict: expect.stringContaining('matched the 2nd acceptable SQL; both ran on academic') })
  expect(byName.wrong_database).toMatchObject({
    outcome: 'failed: wrong result',
    databases: { expected: 'academic', actual: 'restaurants' },
    verdict: expect.stringMatching(/^failed: no answer column holds the values of expected column 1 .*: \[3\]; the answer's column holds \[4\]; expected SQL on academic, answer on restaurants$/)
  })
  expect(byName.no_query).toMatchObject({ outcome: 'error: run', message: 'tests/5_no_query.yml names no database and the agent ran no query to follow; add database: with one of restaurants, academic' })
  expect(byName.unknown).toMatchObject({ outcome: 'error: run', message: 'tests/6_unknown.yml: database "warehouse" is not one of this project\'s databases (restaurants, academic)' })
  // No database_id: the query ran on the first declared database, and so does the expected SQL.
  expect(byName.default_database).toMatchObject({ outcome: 'passed', databases: { expected: 'restaurants', actual: 'restaurants' } })
}

it('judges every case of a two-database project (DuckDB and SQLite) on its own database, through test --json', async () => {
  const { io, out } = captureIo()
  const code = await main(['test', '--project', join(temp.dir, 'project'), '--data-dir', join(temp.dir, 'data'), '--endpoint', server.url, '--model', 'scripted-model', '--json'], io)
  expect(code).toBe(1)
  const report = JSON.parse(out())
  const byName: Judged = Object.fromEntries(report.cases.map((item: EvaluationCaseResult) => [item.name, item]))
  expectEachOnItsOwnDatabase(byName)
  expect(byName.paris.verdict).toBe('passed: same rows in any order (the question asks for none); both ran on restaurants')

  // The stored evaluation shows pass rates per category under the overall one, and each failure's verdict.
  const shown = captureIo()
  expect(await main(['test', '--project', join(temp.dir, 'project'), '--data-dir', join(temp.dir, 'data'), '--show', report.evaluationId], shown.io)).toBe(0)
  expect(shown.out()).toMatch(/\npass rate\s+57% \(4\/7\)\n {2}filter\s+100% \(1\/1\)\n {2}group_by\s+100% \(1\/1\)\n {2}join\s+100% \(1\/1\)\n/)
  expect(shown.out()).toContain('scripted-model · wrong_database: failed: wrong result — no answer column holds the values of expected column 1')
  expect(shown.out()).toContain('  verdict: failed: no answer column holds the values of expected column 1')
}, 60_000)

const postgres = postgresAvailable()

describe.skipIf(!postgres)('two Postgres databases', () => {
  let cluster: PostgresCluster
  let project: ReturnType<typeof makeTempDir>
  let glassbox: Glassbox | undefined
  beforeAll(async () => {
    cluster = await startPostgres(`${RESTAURANTS_SQL}\nGRANT SELECT ON ALL TABLES IN SCHEMA public TO ${ANALYST.user};`)
    await cluster.admin('CREATE DATABASE academic')
    const academic = new pg.Client({ host: cluster.host, port: cluster.port, user: 'postgres', database: 'academic' })
    await academic.connect()
    await academic.query(`${ACADEMIC_SQL}\nGRANT SELECT ON ALL TABLES IN SCHEMA public TO ${ANALYST.user};`)
    await academic.end()
    project = makeTempDir('glassbox-two-postgres-')
    process.env.GLASSBOX_TEST_PG_PASSWORD = ANALYST.password
    const server = (name: string, database: string): string =>
      `  - name: ${name}\n    type: postgres\n    host: 127.0.0.1\n    port: ${cluster.port}\n    database: ${database}\n    user: ${ANALYST.user}\n    password: "{{ env('GLASSBOX_TEST_PG_PASSWORD') }}"\n`
    writeFileSync(join(project.dir, 'nao_config.yaml'), `project_name: two\ndatabases:\n${server('restaurants', 'shop')}${server('academic', 'academic')}`)
    writeCases(project.dir)
  }, 120_000)
  afterAll(async () => {
    await glassbox?.close()
    project?.cleanup()
    await cluster?.stop()
  })

  it('judges every case on its own Postgres database', async () => {
    glassbox = await createGlassbox({ dataDir: join(temp.dir, 'postgres-data'), projectPath: project.dir, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false, trust: { approveAll: true } })
    const detail = await glassbox.runEvaluation({})
    expectEachOnItsOwnDatabase(Object.fromEntries(detail.runs[0].cases.map((item) => [item.name, item])))
  }, 60_000)
})
