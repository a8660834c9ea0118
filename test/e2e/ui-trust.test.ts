import { existsSync, writeFileSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createGlassbox, type Glassbox } from '../../src/main/app/create-glassbox'
import { copyNaoLayout, makeTempDir, REPO_ROOT } from '../support/fixtures'
import { isAgentRequest, latestTurn, startScriptedServer, type RecordedRequest, type ScriptedServer, type Turn } from '../support/scripted-openai-server'
import { seriousAxeViolations } from './axe'
import { describeWithBrowser } from './describe-with-browser'
import { openUi, waitForLastAnswerDone, type UiSession } from './harness'

// Trust on first use in the real UI (real services, web mode, headless Chromium): a project that names a
// server (a real TCP listener on 127.0.0.1) and an MCP server (a real SDK server process). Neither is
// reached before the user approves it in the dialog; Settings lists both, and revoking stops the server.

const PASSWORD_VARIABLE = 'GLASSBOX_E2E_PG_PASSWORD'

function script(request: RecordedRequest): Turn {
  if (!isAgentRequest(request)) return { text: '{"user_instructions": null, "user_profile": null}' }
  const turn = latestTurn(request)
  if (turn.question.includes('echo')) {
    return turn.toolResults.length === 0 ? { toolCalls: [{ name: 'helper__echo', args: { text: 'hello from the model' } }] } : { text: 'The helper echoed it.' }
  }
  if (turn.toolResults.length === 0) return { toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT count(*) FROM orders', database_id: 'warehouse' } }] }
  return { text: 'The warehouse could not be reached.' }
}

describeWithBrowser('project trust in the app', () => {
  let listener: Server
  let port = 0
  let connections = 0
  const sockets = new Set<Socket>()
  let project: ReturnType<typeof copyNaoLayout>
  let data: ReturnType<typeof makeTempDir>
  let model: ScriptedServer
  let glassbox: Glassbox
  let ui: UiSession
  let marker: string

  beforeAll(async () => {
    process.env[PASSWORD_VARIABLE] = 'secret-for-the-listener'
    listener = createServer((socket) => {
      connections += 1
      sockets.add(socket)
      socket.on('data', () => socket.destroy())
      socket.on('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    const address = listener.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    port = address.port
    project = copyNaoLayout()
    data = makeTempDir('glassbox-e2e-data-')
    marker = join(data.dir, 'mcp-started.pid')
    writeFileSync(
      join(project.dir, 'nao_config.yaml'),
      [
        'project_name: nao-layout',
        'databases:',
        '- {name: duckdb-jaffle-shop, type: duckdb, path: ./jaffle_shop.duckdb}',
        '- name: warehouse',
        '  type: postgres',
        '  host: 127.0.0.1',
        `  port: ${port}`,
        '  database: analytics',
        '  user: analyst',
        `  password: "{{ env('${PASSWORD_VARIABLE}') }}"`,
        'mcp:',
        '  json_file_path: ./agent/mcps/mcp.json'
      ].join('\n')
    )
    writeFileSync(
      join(project.dir, 'agent/mcps/mcp.json'),
      JSON.stringify({ mcpServers: { helper: { command: process.execPath, args: [join(REPO_ROOT, 'test/support/mcp-test-server.mjs')], env: { MCP_TEST_MARKER: marker } } } })
    )
    model = await startScriptedServer({ script })
    glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: model.url, model: 'scripted-model', watch: false, extractMemories: false })
    ui = await openUi(glassbox)
    await ui.page.goto(ui.appUrl)
    await ui.page.getByTestId('project-name').waitFor()
  }, 120_000)

  afterAll(async () => {
    await ui?.close()
    await glassbox?.close()
    await model?.close()
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => listener?.close(resolve))
    project?.cleanup()
    data?.cleanup()
    delete process.env[PASSWORD_VARIABLE]
  })

  it('says what the project asks, and starts or sends nothing meanwhile', async () => {
    const { page } = ui
    await expect.poll(() => page.getByTestId('trust-indicator').textContent()).toBe('Trust: 2 requests')
    expect(await page.getByTestId('trust-dialog').count()).toBe(0)
    expect(existsSync(marker)).toBe(false)
    expect(connections).toBe(0)
  })

  it('a query on the server the project names is refused with the reason, and the dialog names exactly what it asks', async () => {
    const { page } = ui
    await page.getByTestId('composer').fill('How many orders are in the warehouse?')
    await page.keyboard.press('Enter')
    await page.locator('[data-role="assistant"]').last().waitFor()
    await waitForLastAnswerDone(page, 20_000)
    const dialog = page.getByTestId('trust-dialog')
    await dialog.waitFor()
    const text = (await dialog.textContent()) ?? ''
    expect(text).toContain(`127.0.0.1:${port}`)
    expect(text).toContain('analytics')
    expect(text).toContain('analyst')
    expect(text).toContain(`$${PASSWORD_VARIABLE}`)
    expect(text).toContain('mcp-test-server.mjs')
    expect(text).toContain(`MCP_TEST_MARKER=${marker}`)
    expect(connections).toBe(0)
    await ui.screenshot('trust-01-dialog')
    expect(await seriousAxeViolations(page)).toEqual([])
    const toolOutput = JSON.stringify(model.chatRequests().map((request) => request.body))
    expect(toolOutput).toContain(`This project asks to connect to 127.0.0.1:${port} (postgres database analytics) as analyst with $${PASSWORD_VARIABLE}`)
    expect(toolOutput).not.toContain('secret-for-the-listener')
  })

  it('approving the MCP server starts it; "Not now" leaves the server refused', async () => {
    const { page } = ui
    const dialog = page.getByTestId('trust-dialog')
    await dialog.getByTestId('trust-request').filter({ hasText: 'mcp-test-server.mjs' }).getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => existsSync(marker), { timeout: 15_000 }).toBe(true)
    // The approved request leaves the dialog once the server has started (approveTrust answers then).
    await expect.poll(() => dialog.getByTestId('trust-request').count(), { timeout: 15_000 }).toBe(1)
    await page.getByTestId('trust-not-now').click()
    expect(await page.getByTestId('trust-dialog').count()).toBe(0)
    expect(connections).toBe(0)
  })

  it('the model calls the approved server\'s tool: the card names server and tool, and shows what the model received', async () => {
    const { page } = ui
    await page.getByTestId('composer').fill('Please echo something')
    await page.keyboard.press('Enter')
    await page.locator('[data-role="assistant"]').last().waitFor()
    await waitForLastAnswerDone(page, 20_000)
    const card = page.locator('[data-testid="tool-call"][data-tool="helper__echo"]').last()
    expect(await card.locator('.tool-call-label').textContent()).toBe('MCP helper · echo')
    await card.locator('.tool-call-head').click()
    expect(await card.locator('.tool-call-body').textContent()).toContain('echo: hello from the model')
    await ui.screenshot('trust-03-mcp-tool-card')
  })

  it('Settings lists both, with each MCP server state; revoking stops the server', async () => {
    const { page } = ui
    await page.getByTestId('nav-settings').click()
    const server = page.getByTestId('mcp-server').filter({ hasText: 'helper' })
    await expect.poll(() => server.getByTestId('mcp-state').textContent(), { timeout: 15_000 }).toBe('ready (5 tools)')
    const items = page.getByTestId('trust-item')
    expect(await items.count()).toBe(2)
    await page.locator('#project-trust').scrollIntoViewIfNeeded()
    await ui.screenshot('trust-02-settings')
    expect(await seriousAxeViolations(page)).toEqual([])
    // The inspector's request lists what the server adds: server, tool, schema and token cost.
    await page.locator('[data-tab="request"]').click()
    const tools = page.getByTestId('mcp-tools')
    await expect.poll(() => tools.locator('summary').first().textContent(), { timeout: 10_000 }).toMatch(/^Tools from MCP servers \(5, \d+ tokens\)$/)
    await tools.locator('summary').first().click()
    const row = tools.locator('tbody tr').first()
    expect(await row.locator('td').first().textContent()).toBe('helper')
    expect(['echo', 'fail', 'hang', 'big', 'secret']).toContain(await row.locator('code').textContent())
    expect(await row.locator('td').last().textContent()).toMatch(/^\d+$/)
    await items.filter({ hasText: 'mcp-test-server.mjs' }).getByRole('button', { name: 'Revoke' }).click()
    await expect.poll(() => page.getByTestId('mcp-tools').count()).toBe(0)
    await expect.poll(() => server.getByTestId('mcp-state').textContent()).toBe('not approved — not started')
    expect(glassbox.session().mcp.tools()).toEqual([])
  })
})
