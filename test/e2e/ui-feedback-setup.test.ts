import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Download, Page } from 'playwright-core'
import { createGlassbox, type Glassbox } from '../../src/main/app/create-glassbox'
import { DuckDBInstance } from '@duckdb/node-api'
import { copyNaoLayout, makeTempDir, REPO_ROOT } from '../support/fixtures'
import { unusedLoopbackPort } from '../support/free-port'
import { isAgentRequest, latestTurn, startScriptedServer, type RecordedRequest, type ScriptedServer, type Turn } from '../support/scripted-openai-server'
import { ANALYST, postgresAvailable, postgresConfig, SHOP_SQL, startPostgres } from '../support/postgres-server'
import { seriousAxeViolations } from './axe'
import { describeWithBrowser } from './describe-with-browser'
import { openUi, startNewChat, waitForLastAnswerDone, type UiSession } from './harness'

// Feedback that grows the test suite, "Check setup" and "New project…", end to end on the real services (a
// copy of the nao-layout fixture, a store in a temp folder, a scripted model server on loopback) in headless
// Chromium: a 👍 becomes a test case in two clicks and the real `glassbox test` process then passes it.

const ORDERS_SQL = 'SELECT count(*) AS orders FROM orders'

function script(request: RecordedRequest): Turn {
  if (!isAgentRequest(request)) return { text: '{"user_instructions": null, "user_profile": null}' }
  const turn = latestTurn(request)
  return turn.toolResults.length === 0 ? { toolCalls: [{ name: 'execute_sql', args: { sql_query: ORDERS_SQL } }] } : { text: 'There are 99 orders in the shop.' }
}

let model: ScriptedServer
let small: ScriptedServer
let glassbox: Glassbox
let ui: UiSession
let root: string
const cleanups: (() => void)[] = []

beforeAll(async () => {
  const project = copyNaoLayout()
  const data = makeTempDir('glassbox-e2e-feedback-')
  cleanups.push(project.cleanup, data.cleanup)
  root = project.dir
  rmSync(join(root, 'tests'), { recursive: true })
  model = await startScriptedServer({ script, llamaProps: { default_generation_settings: { n_ctx: 32_768 }, chat_template_caps: { supports_tools: true } } })
  small = await startScriptedServer({ llamaProps: { default_generation_settings: { n_ctx: 1024 }, chat_template_caps: { supports_tools: true } } })
  glassbox = await createGlassbox({ dataDir: data.dir, projectPath: root, endpoint: model.url, model: 'scripted-model', watch: false, extractMemories: false })
  ui = await openUi(glassbox)
  await ui.page.goto(ui.appUrl)
  await ui.page.getByTestId('project-name').waitFor()
}, 120_000)

afterAll(async () => {
  await ui?.close()
  await glassbox?.close()
  await model?.close()
  await small?.close()
  cleanups.splice(0).forEach((cleanup) => cleanup())
})

/** The real `glassbox` process (asynchronous: the scripted server answers from this process). */
function glassboxCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, ['bin/glassbox.js', ...args], { cwd: REPO_ROOT, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr })
    )
  )
}

/** Read back by another CSV reader (DuckDB's, as a spreadsheet would), every field as text. */
async function readCsvWithDuckDb(file: string): Promise<string[][]> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  const reader = await connection.runAndReadAll(`SELECT * FROM read_csv('${file}', header = true, all_varchar = true)`)
  const rows = reader.getRowsJS().map((row) => row.map((cell) => (cell === null ? '' : String(cell))))
  const columns = reader.columnNames()
  connection.closeSync()
  instance.closeSync()
  return [columns, ...rows]
}

async function ask(page: Page, question: string): Promise<void> {
  // The new chat must be on screen before typing: text typed while the old chat is still shown goes there.
  await startNewChat(page)
  await page.getByTestId('composer').fill(question)
  await page.keyboard.press('Enter')
  await page.locator('[data-role="user"]', { hasText: question }).last().waitFor()
  await page.locator('[data-role="assistant"]').last().waitFor()
  await waitForLastAnswerDone(page, 20_000)
}

describeWithBrowser('feedback, check setup and new project in the browser', () => {
  it('turns a 👍 into a test case in two clicks, and glassbox test then passes it', async () => {
    const { page } = ui
    await ask(page, 'How many orders are there?')
    const answer = page.locator('[data-role="assistant"]').last()
    await answer.getByTestId('feedback-up').click() // click 1
    const yaml = answer.getByTestId('test-case-yaml')
    await expect.poll(() => yaml.textContent()).toBe(`name: how_many_orders_are_there\nprompt: How many orders are there?\nsql: |\n  ${ORDERS_SQL}\ndatabase: duckdb-jaffle-shop\n`)
    await expect.poll(() => answer.getByTestId('test-case-review').textContent()).toContain('Will write tests/how_many_orders_are_there.yml')
    expect(existsSync(join(root, 'tests/how_many_orders_are_there.yml'))).toBe(false)
    const reviewed = await yaml.textContent()
    await answer.getByTestId('save-test-case').click() // click 2
    await expect.poll(() => answer.getByTestId('feedback-saved').textContent()).toBe('test case tests/how_many_orders_are_there.yml')
    expect(readFileSync(join(root, 'tests/how_many_orders_are_there.yml'), 'utf8')).toBe(reviewed)
    await ui.screenshot('feedback-saved-case')

    const data = makeTempDir('glassbox-e2e-feedback-cli-')
    cleanups.push(data.cleanup)
    const test = await glassboxCli(['test', '--project', root, '--endpoint', model.url, '--model', 'scripted-model', '--data-dir', data.dir, '--json'])
    expect(test.stderr).toBe('')
    expect(JSON.parse(test.stdout)).toMatchObject({ passed: 1, failed: 0, errored: 0, cases: [{ name: 'how_many_orders_are_there', status: 'passed' }] })
  }, 120_000)

  it('👎 asks what the SQL should have been, and the feedback list filters and exports it', async () => {
    const { page } = ui
    await ask(page, 'How many completed orders are there?')
    const answer = page.locator('[data-role="assistant"]').last()
    await answer.getByTestId('feedback-down').click()
    await answer.getByTestId('feedback-note').fill('counts every status, "completed" only, please')
    await answer.getByRole('button', { name: 'Save note' }).click()
    await answer.getByTestId('feedback-corrected-sql').fill("SELECT count(*) FROM orders WHERE status = 'completed'")
    await answer.getByTestId('review-test-case').click()
    await expect.poll(() => answer.getByTestId('test-case-yaml').textContent()).toContain("sql: |\n  SELECT count(*) FROM orders WHERE status = 'completed'\n")
    await answer.getByTestId('save-test-case').click()
    await expect.poll(() => answer.getByTestId('feedback-saved').textContent()).toBe('test case tests/how_many_completed_orders_are_there.yml')

    await page.getByTestId('nav-feedback').click()
    const list = page.getByTestId('feedback-list')
    await expect.poll(() => list.locator('li').count()).toBe(2)
    await page.getByTestId('feedback-filter-down').click()
    await expect.poll(() => list.locator('li').count()).toBe(1)
    await expect.poll(() => list.textContent()).toContain('counts every status, "completed" only, please')
    expect(await seriousAxeViolations(page)).toEqual([])
    await ui.screenshot('feedback-list')
    const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), page.getByTestId('feedback-export').click()])
    const rows = await readCsvWithDuckDb(await download.path())
    expect(rows).toHaveLength(2)
    expect(rows[1].slice(1, 4)).toEqual(['bad', 'How many completed orders are there?', 'counts every status, "completed" only, please'])
    expect(rows[1][6]).toBe("SELECT count(*) FROM orders WHERE status = 'completed'")
    await page.getByTestId('feedback-filter-up').click()
    await expect.poll(() => list.textContent()).toContain('tests/how_many_orders_are_there.yml')
  }, 120_000)

  it('Check setup names each fault of a broken set-up with its fix: server down, window too small, database unreadable', async () => {
    const { page } = ui
    const broken = copyNaoLayout()
    cleanups.push(broken.cleanup)
    writeFileSync(join(broken.dir, 'broken.duckdb'), 'not a database')
    writeFileSync(join(broken.dir, 'nao_config.yaml'), 'project_name: broken\ndatabases:\n- {name: jaffle, type: duckdb, path: ./jaffle_shop.duckdb}\n- {name: broken, type: duckdb, path: ./broken.duckdb}\n')
    await glassbox.openProject({ path: broken.dir })
    const down = `http://127.0.0.1:${await unusedLoopbackPort()}/v1`
    await glassbox.updateSettings({ endpoint: down, model: 'scripted-model' })
    await page.reload()
    await page.getByTestId('project-name').waitFor()
    await page.getByTestId('nav-setup').click()
    const lines = page.getByTestId('check-setup-lines')
    await expect.poll(() => page.getByTestId('check-setup-summary').textContent(), { timeout: 20_000 }).toBe('2 problems to fix.')
    const failed = lines.locator('li[data-status="fail"]')
    await expect.poll(() => failed.allTextContents()).toEqual([
      "✗Database: broken (broken.duckdb): is neither a DuckDB nor a SQLite database fileFix: Point path: in nao_config.yaml at a readable DuckDB or SQLite file, or fix the file's permissions.",
      expect.stringMatching(new RegExp(`^✗Model server: Could not reach the model server at ${down.replaceAll('.', '\\.')}: nothing is listening there \\(connection refused\\)\\.Fix: Start the server that should listen there`))
    ])
    expect(await seriousAxeViolations(page)).toEqual([])
    await ui.screenshot('check-setup-broken')

    await glassbox.updateSettings({ endpoint: small.url, model: 'scripted-model' })
    await page.getByTestId('check-setup-run').click()
    await expect.poll(() => lines.locator('li[data-check="context-window"]').textContent(), { timeout: 20_000 }).toMatch(/^✗Context window: scripted-model at .*: the window is 1,024 tokens \(llama\.cpp \/props n_ctx\), smaller than the [\d,]+ this project's request needs .*Fix: .*-c 16384/)
  }, 120_000)

  it.skipIf(!postgresAvailable())('Check setup names an unapproved Postgres server and MCP server with their fixes, touching neither; approved in the dialog, both are ✓', async () => {
    const { page } = ui
    const cluster = await startPostgres(SHOP_SQL)
    const relay = await countingRelay(cluster.port)
    const previousPassword = process.env.GLASSBOX_TEST_PG_PASSWORD
    process.env.GLASSBOX_TEST_PG_PASSWORD = ANALYST.password
    try {
      const folder = makeTempDir('glassbox-e2e-trust-setup-')
      cleanups.push(folder.cleanup)
      const marker = join(folder.dir, 'mcp-started')
      mkdirSync(join(folder.dir, 'project/agent/mcps'), { recursive: true })
      const dir = join(folder.dir, 'project')
      writeFileSync(join(dir, 'nao_config.yaml'), `${postgresConfig(relay.port)}mcp:\n  json_file_path: ./agent/mcps/mcp.json\n`)
      writeFileSync(join(dir, 'agent/mcps/mcp.json'), JSON.stringify({ mcpServers: { helper: { command: process.execPath, args: [join(REPO_ROOT, 'test/support/mcp-test-server.mjs')], env: { MCP_TEST_MARKER: marker } } } }))
      await glassbox.openProject({ path: dir })
      await glassbox.updateSettings({ endpoint: model.url, model: 'scripted-model' })
      await page.reload()
      await page.getByTestId('project-name').waitFor()
      await page.getByTestId('nav-setup').click()
      const lines = page.getByTestId('check-setup-lines')
      const summary = page.getByTestId('check-setup-summary')
      await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe('4 problems to fix.')
      const fix = 'Fix: Approve it in Settings → Project trust, or run with --trust-project.'
      const asked = `connect to 127.0.0.1:${relay.port} (postgres database shop) as ${ANALYST.user} with $GLASSBOX_TEST_PG_PASSWORD`
      const command = `${process.execPath} ${join(REPO_ROOT, 'test/support/mcp-test-server.mjs')}`
      expect(await lines.locator('li[data-status="fail"]').allTextContents()).toEqual([
        `✗Approval: not approved: ${asked}. Nothing is sent or started until it is${fix}`,
        `✗Approval: not approved: start the process \`${command}\` (environment: MCP_TEST_MARKER=${marker}). Nothing is sent or started until it is${fix}`,
        `✗Database: warehouse (postgres, 127.0.0.1:${relay.port}/shop) is not approved, so Glassbox did not connect: this project asks to ${asked}${fix}`,
        `✗MCP server: helper: not approved, so not started: \`${command}\`${fix}`
      ])
      expect(relay.connections()).toBe(0)
      expect(existsSync(marker)).toBe(false)
      expect(await seriousAxeViolations(page)).toEqual([])
      await ui.screenshot('check-setup-unapproved')

      // What the fix says: approve each request (the panel opens the trust dialog), then check again.
      await page.getByTestId('check-setup-review-trust').click()
      const dialog = page.getByTestId('trust-dialog')
      for (let left = 2; left > 0; left--) {
        await expect.poll(() => dialog.getByTestId('trust-request').count()).toBe(left)
        await dialog.getByRole('button', { name: 'Approve' }).first().click()
      }
      await dialog.waitFor({ state: 'detached' })
      await expect.poll(() => glassbox.getMcpStatus({}).then((status) => status.servers[0].state), { timeout: 30_000 }).toBe('ready')
      await page.getByTestId('check-setup-run').click()
      await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe('Everything Glassbox needs is in place.')
      expect(await lines.locator('li[data-status="fail"]').count()).toBe(0)
      expect(await page.getByTestId('check-setup-review-trust').count()).toBe(0)
      await ui.screenshot('check-setup-approved')
      await expect.poll(() => lines.locator('li[data-check="database"]').textContent()).toMatch(new RegExp(`^✓Database: warehouse \\(postgres, 127\\.0\\.0\\.1:${relay.port}/shop\\) answers and is read-only`))
      expect(await lines.locator('li[data-check="mcp-server"][data-status="pass"]').textContent()).toMatch(/^✓MCP server: helper: ready with 5 tools \(helper__echo/)
      expect(relay.connections()).toBeGreaterThan(0)
      expect(existsSync(marker)).toBe(true)
    } finally {
      if (previousPassword === undefined) delete process.env.GLASSBOX_TEST_PG_PASSWORD
      else process.env.GLASSBOX_TEST_PG_PASSWORD = previousPassword
      await relay.close()
      await cluster.stop()
    }
  }, 180_000)

  it('New project… makes a project of a data folder, syncs it and opens it', async () => {
    const { page } = ui
    const folder = makeTempDir('glassbox-e2e-new-')
    cleanups.push(folder.cleanup)
    writeFileSync(join(folder.dir, 'sales.csv'), 'day,amount\n2024-01-01,10\n2024-01-02,12\n')
    writeFileSync(join(folder.dir, 'RULES.md'), 'Our rules.\n')
    await page.getByTestId('new-project').click()
    await page.getByTestId('new-project-path').fill(folder.dir)
    await page.getByTestId('new-project-name').fill('Sales')
    await page.getByTestId('new-project-create').click()
    const summary = page.getByTestId('new-project-summary')
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toContain('Sales: sales (csv)')
    expect(await summary.textContent()).toContain('kept RULES.md (it was there)')
    expect(await summary.textContent()).toContain('wrote tests/row_count_sales.yml')
    await summary.getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => page.getByTestId('project-name').textContent()).toBe('Sales')
    expect(readFileSync(join(folder.dir, 'RULES.md'), 'utf8')).toBe('Our rules.\n')
    expect(existsSync(join(folder.dir, 'databases/type=csv/database=sales/schema=main/table=sales/columns.md'))).toBe(true)
  }, 120_000)
})

/** A loopback TCP relay to the real Postgres that counts connections: proof of what reached the server. */
async function countingRelay(targetPort: number): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0
  const sockets = new Set<Socket>()
  const relay = createServer((socket) => {
    connections += 1
    const upstream = connect(targetPort, '127.0.0.1')
    for (const end of [socket, upstream]) {
      sockets.add(end)
      end.on('error', () => undefined)
      end.on('close', () => (sockets.delete(end), socket.destroy(), upstream.destroy()))
    }
    socket.pipe(upstream).pipe(socket)
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  const address = relay.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return {
    port: address.port,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => relay.close(resolve))
    }
  }
}
