import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../../test/support/fixtures'
import { CARS_SQL, mariadbAvailable, MYSQL_ANALYST, mysqlConfig, startMariaDb, type MariaDbServer } from '../../../../test/support/mariadb-server'
import { modelThatJoinsOnWhatItRead } from '../../../../test/support/foreign-key-model'
import { startScriptedServer } from '../../../../test/support/scripted-openai-server'
import { createGlassbox } from '../../app/create-glassbox'
import { executeSqlTool } from '../../agent/tools/execute-sql'
import { makeToolContext } from '../../agent/tools/tool-context.testing'
import { trustingEverything } from '../../trust/trust.testing'
import { syncProject } from '../../data/sync'
import { loadProject } from '../../project/load'

// A real MariaDB server started for these tests (mariadb-install-db + mariadbd, loopback, unprivileged),
// queried as a user that MAY write the database and read or write server files: every refusal below is
// Glassbox's read-only session, its EXPLAIN check or its refusal by name, not a missing grant.

// Skipped, with a one-line install hint, where MariaDB is not installed; CI requires it (GLASSBOX_REQUIRE_MYSQL).
const available = mariadbAvailable()

describe.skipIf(!available)('MySQL/MariaDB against a live server', () => {
  let server: MariaDbServer
  let temp: ReturnType<typeof makeTempDir>
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    server = await startMariaDb(CARS_SQL)
    temp = makeTempDir()
    process.env.GLASSBOX_TEST_MYSQL_PASSWORD = MYSQL_ANALYST.password
    writeFileSync(join(temp.dir, 'nao_config.yaml'), mysqlConfig(server.port))
    ctx = await makeToolContext(temp.dir, { limits: { sqlTimeoutMs: 5_000 } })
  }, 180_000)
  afterAll(async () => {
    ctx?.close()
    temp?.cleanup()
    await server?.stop()
  })

  const run = (sql: string, limits: Partial<typeof ctx.limits> = {}, signal?: AbortSignal) =>
    trustingEverything(temp.dir, () => executeSqlTool.invoke({ sql_query: sql, database_id: 'dealer' }, { ...ctx, limits: { ...ctx.limits, ...limits }, signal: signal ?? ctx.signal }))

  it('answers a join with the true figures, dates as dates and decimals exact', async () => {
    const result = await run('SELECT c.model, SUM(s.price) AS total, MIN(s.sold_on) AS first FROM sales s JOIN cars c ON c.id = s.car_id GROUP BY c.model ORDER BY c.model')
    expect(result.ok, result.output).toBe(true)
    expect(result.output).toContain('(database dealer, mysql)')
    expect(result.output).toContain('| Estate | 29000.00 | 2023-04-02 |')
    expect(result.output).toContain('| Roadster | 80500.00 | 2023-03-15 |')
  })

  it('answers under the database name too, and counts rows it does not keep', async () => {
    const named = await trustingEverything(temp.dir, () => executeSqlTool.invoke({ sql_query: 'SELECT COUNT(*) AS n FROM cars', database_id: 'shop' }, ctx))
    expect(named.output).toContain('| 3 |')
    const digits = 'WITH d AS (SELECT 0 AS i UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)'
    const many = await run(`${digits} SELECT a.i FROM d a, d b, d c, d e`)
    expect(many.output).toContain('… 9950 more rows (10000 total)')
  })

  // OUTDIR stands for the server's one writable folder, known once it has started.
  const refused: Array<[string, string]> = [
    ['INSERT', "INSERT INTO cars VALUES (9, 'Hack', 1)"],
    ['UPDATE', 'UPDATE sales SET price = 0'],
    ['DELETE', 'DELETE FROM sales'],
    ['REPLACE', "REPLACE INTO cars VALUES (1, 'Hack', 1)"],
    ['DROP', 'DROP TABLE sales'],
    ['CREATE', 'CREATE TABLE hack (a int)'],
    ['CREATE TEMPORARY', 'CREATE TEMPORARY TABLE hack (a int)'],
    ['TRUNCATE', 'TRUNCATE sales'],
    ['ALTER', 'ALTER TABLE cars ADD COLUMN hack int'],
    ['a second statement', 'SELECT 1; DELETE FROM sales'],
    ['START TRANSACTION READ WRITE', 'START TRANSACTION READ WRITE'],
    ['SET SESSION TRANSACTION READ WRITE', 'SET SESSION TRANSACTION READ WRITE'],
    ['SET GLOBAL', 'SET GLOBAL max_connections = 3'],
    ['LOAD DATA', "LOAD DATA INFILE '/etc/hostname' INTO TABLE cars"],
    ['INTO OUTFILE', `SELECT * FROM cars INTO OUTFILE 'OUTDIR/leak.csv'`],
    ['INTO DUMPFILE', `SELECT 'x' INTO DUMPFILE 'OUTDIR/leak.bin'`],
    ['INTO OUTFILE in an executable comment', `SELECT * FROM cars /*! INTO OUTFILE 'OUTDIR/comment.csv' */`],
    ['INTO a variable', 'SELECT COUNT(*) INTO @n FROM cars'],
    ['GET_LOCK', "SELECT GET_LOCK('glassbox', 1)"],
    ['LOAD_FILE', "SELECT LOAD_FILE('/etc/hostname')"],
    ['a stored procedure call', 'CALL mysql.nothing()'],
    ['HANDLER', 'HANDLER cars OPEN'],
    ['LOCK TABLES', 'LOCK TABLES cars WRITE'],
    ['GRANT', `GRANT ALL ON shop.* TO '${MYSQL_ANALYST.user}'@'%'`]
  ]
  it.each(refused)('refuses %s and changes nothing', async (_what, sql) => {
    const result = await run(sql.replace('OUTDIR', server.outfileFolder))
    expect(result.ok, result.output).toBe(false)
    expect(result.output).toMatch(/^Error: .*(Only read queries run on MySQL|Only one statement runs|read-only transaction|refused|Refused)/)
    const [[cars, total, hack]] = await server.admin(
      "SELECT (SELECT COUNT(*) FROM shop.cars), (SELECT SUM(price) FROM shop.sales), (SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'shop' AND (TABLE_NAME = 'hack' OR COLUMN_NAME = 'hack'))"
    )
    expect([Number(cars), String(total), Number(hack)]).toEqual([3, '109500.00', 0])
    expect(readdirSync(server.outfileFolder).filter((name) => /leak|comment/.test(name))).toEqual([])
    const [[maxConnections, locked]] = await server.admin("SELECT @@GLOBAL.max_connections, IS_USED_LOCK('glassbox')")
    expect([Number(maxConnections), locked]).toEqual([40, null])
  })

  it.each([
    ['WITH … SELECT', 'WITH c AS (SELECT id FROM cars) SELECT COUNT(*) AS n FROM c', '| 3 |'],
    ['VALUES', 'VALUES (1, 2)', '| 1 | 2 |'],
    ['a parenthesised UNION', '(SELECT 7 AS n) UNION (SELECT 8)', '| 8 |'],
    ['a trailing semicolon', 'SELECT 5 AS n;', '| 5 |']
  ])('runs %s', async (_what, sql, expected) => {
    const result = await run(sql)
    expect(result.ok, result.output).toBe(true)
    expect(result.output).toContain(expected)
  })

  it('reads text that merely looks like a refused form', async () => {
    const result = await run("SELECT 'INTO OUTFILE' AS `into`, 'GET_LOCK(' AS l -- into outfile\nFROM cars LIMIT 1")
    expect(result.ok, result.output).toBe(true)
    expect(result.output).toContain('| INTO OUTFILE | GET_LOCK( |')
  })

  it('keeps the session read-only whatever a query tries', async () => {
    expect((await run('SET SESSION TRANSACTION READ WRITE')).ok).toBe(false)
    expect((await run("INSERT INTO cars VALUES (10, 'Later', 1)")).ok).toBe(false)
    const mode = await run('SELECT @@SESSION.tx_read_only AS ro')
    expect(mode.output).toContain('| 1 |')
  })

  it('stops SLEEP beyond the time limit, on the server', async () => {
    const started = performance.now()
    const result = await run('SELECT SLEEP(30) AS s, COUNT(*) FROM cars', { sqlTimeoutMs: 1_000 })
    expect(result.ok).toBe(false)
    expect(result.output).toMatch(/stopped after 1 s/)
    expect(performance.now() - started).toBeLessThan(5_000)
    expect((await run('SELECT 1 AS one')).output).toContain('| 1 |')
  })

  it('cancels the running statement with KILL QUERY when the run is stopped', async () => {
    const controller = new AbortController()
    const started = performance.now()
    setTimeout(() => controller.abort(), 500)
    const result = await run('SELECT SLEEP(30) AS s', {}, controller.signal)
    expect(result.output).toMatch(/cancelled/)
    expect(performance.now() - started).toBeLessThan(5_000)
    const [[active]] = await server.admin("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(30)%' AND COMMAND = 'Query'")
    expect(Number(active)).toBe(0)
    expect((await run('SELECT 2 AS two')).output).toContain('| 2 |')
  })

  it('applies the byte budget and the cell cap', async () => {
    const budget = await run(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 900) SELECT i, REPEAT('y', 5000) AS s FROM n",
      { maxResultBytes: 1024 * 1024 }
    )
    expect(budget.output).toMatch(/… result truncated at 1 MB: \d+ rows kept, the rest was not read/)
    const cell = await run("SELECT REPEAT('x', 200000) AS s")
    const stored = ctx.queryStore.get(cell.output.match(/query_id: (\S+)/)?.[1] ?? '')
    expect(String(stored?.rows[0][0])).toMatch(/^x{10000}… \[190,000 more characters\]$/)
    expect((await run('SELECT 3 AS three')).output).toContain('| 3 |')
  })

  it('syncs native types, nullability, keys, comments and dates as dates', async () => {
    const project = makeTempDir()
    try {
      writeFileSync(join(project.dir, 'nao_config.yaml'), mysqlConfig(server.port))
      const result = await trustingEverything(project.dir, () => syncProject(project.dir))
      expect(result.errors).toEqual([])
      expect(result.databases[0].warnings).toEqual([])
      const folder = join(project.dir, 'databases/type=mysql/database=shop/schema=shop')
      expect(readFileSync(join(folder, 'table=sales/columns.md'), 'utf8')).toBe(
        [
          '# sales',
          '',
          '**Dataset:** `shop`',
          '',
          '## Columns (5)',
          '',
          '- id (bigint(20)) not null, primary key',
          '- car_id (int(11)) not null, → cars.id',
          '- sold_on (date) not null',
          '- price (decimal(10,2)) not null',
          '- notes (text)',
          ''
        ].join('\n')
      )
      expect(readFileSync(join(folder, 'table=cars/columns.md'), 'utf8')).toContain('- model (varchar(120)) not null, unique — Model name as sold\n')
      expect(readFileSync(join(folder, 'table=cars/description.md'), 'utf8')).toContain('## Description\n\nOne row per car model\n')
      const preview = readFileSync(join(folder, 'table=sales/preview.md'), 'utf8')
      expect(preview).toContain('"car_id": 1, "sold_on": "2023-03-15", "price": 40000.00')
      expect(preview).toContain('… [2,000 more characters]')
      const loaded = await loadProject(project.dir)
      expect(loaded.connections).toEqual([{ type: 'mysql', database: 'shop' }])
      for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
        const path = join(folder, file)
        if (file.endsWith('.md')) expect(readFileSync(path, 'utf8')).not.toContain(MYSQL_ANALYST.password)
      }
    } finally {
      project.cleanup()
    }
  })

  it('lets a scripted model join on the foreign key it read from the synced columns.md', async () => {
    const project = makeTempDir()
    const model = await startScriptedServer({
      script: modelThatJoinsOnWhatItRead({
        columnsFile: 'databases/type=mysql/database=shop/schema=shop/table=sales/columns.md',
        fact: 'sales',
        keyColumn: 'car_id',
        label: 'model',
        amount: 'price'
      })
    })
    writeFileSync(join(project.dir, 'nao_config.yaml'), mysqlConfig(server.port))
    expect((await trustingEverything(project.dir, () => syncProject(project.dir))).errors).toEqual([])
    const glassbox = await createGlassbox({ dataDir: join(project.dir, '.data'), projectPath: project.dir, endpoint: model.url, model: 'scripted-model', watch: false, extractMemories: false, trust: { approveAll: true } })
    try {
      const chat = await glassbox.createChat({})
      await glassbox.waitForRun((await glassbox.sendMessage({ chatId: chat.id, text: 'Which model sold the most?' })).runId)
      const answer = (await glassbox.getChat({ chatId: chat.id })).messages.at(-1)
      expect(answer?.toolCalls?.map((call) => [call.name, call.ok])).toEqual([
        ['read', true],
        ['execute_sql', true]
      ])
      expect(answer?.text).toBe('Roadster sold the most: 80500.00.')
    } finally {
      await glassbox.close()
      await model.close()
      project.cleanup()
    }
  })

  it('says which server it could not reach, never the password', async () => {
    process.env.GLASSBOX_TEST_MYSQL_PASSWORD = 'wrong-password-5e1f'
    const wrong = await makeToolContext(temp.dir)
    // The password is read from the environment when connecting, once the server is approved.
    const failed = await trustingEverything(temp.dir, () => executeSqlTool.invoke({ sql_query: 'SELECT 1' }, wrong))
    process.env.GLASSBOX_TEST_MYSQL_PASSWORD = MYSQL_ANALYST.password
    wrong.close()
    expect(failed.ok).toBe(false)
    expect(failed.output).toMatch(/Cannot connect to MySQL at 127\.0\.0\.1:\d+ \(database shop, user analyst\): Access denied/)
    expect(failed.output).not.toContain('wrong-password-5e1f')
    expect(existsSync(join(server.outfileFolder, 'leak.csv'))).toBe(false)
  })
})
