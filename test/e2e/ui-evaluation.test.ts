import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createGlassbox, type Glassbox } from '../../src/main/app/create-glassbox'
import { makeTempDir } from '../support/fixtures'
import type { ScriptedServer } from '../support/scripted-openai-server'
import { evaluationProject, RULE, startTwoModelServer } from '../support/two-model-evaluation'
import { describeWithBrowser } from './describe-with-browser'
import { openUi, type UiSession } from './harness'

// Issue #15 in the real UI: one scripted server serving `half` (right for two of four cases) and `all`
// (right for every case), the real services behind web mode, the Tests panel in headless Chromium.

const require = createRequire(import.meta.url)
let server: ScriptedServer
let glassbox: Glassbox
let ui: UiSession
let project: ReturnType<typeof evaluationProject>
const cleanups: Array<() => void> = []

beforeAll(async () => {
  project = evaluationProject()
  // Categories for the per-category pass rates: `half` gets both money cases wrong, both count cases right.
  for (const [file, category] of [['01_customer_count', 'count'], ['03_coffee_products', 'count'], ['02_total_revenue', 'money'], ['07_return_rate', 'money']]) {
    appendFileSync(join(project.dir, 'tests', `${file}.yml`), `category: ${category}\n`)
  }
  const data = makeTempDir('glassbox-e2e-eval-')
  cleanups.push(project.cleanup, data.cleanup)
  server = await startTwoModelServer()
  glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: server.url, model: 'half', watch: true, extractMemories: false })
  ui = await openUi(glassbox)
}, 120_000)

afterAll(async () => {
  await ui?.close()
  await glassbox?.close()
  await server?.close()
  for (const cleanup of cleanups) cleanup()
})

describeWithBrowser('Tests panel: an evaluation across two models', () => {
  it('runs the suite for both models and shows the matrix at 50 % and 100 %, keeping the runs out of the chat list', async () => {
    const { page } = ui
    await page.goto(ui.appUrl)
    await page.getByTestId('nav-tests').click()
    await page.getByTestId('pick-model-all').waitFor()
    expect(await page.getByTestId('pick-model-half').isChecked()).toBe(true)
    await page.getByTestId('pick-model-all').check()
    await expect.poll(() => page.getByTestId('run-tests').textContent()).toBe('Run 4 tests × 2 models')
    await page.getByTestId('run-tests').click()
    await expect.poll(() => page.getByTestId('pass-rate-1').textContent(), { timeout: 30_000 }).toBe('100% (4/4)')
    await page.getByTestId('test-summary').waitFor()
    expect(await page.getByTestId('pass-rate-0').textContent()).toBe('50% (2/4)')
    expect(await page.getByTestId('category-count').textContent()).toBe('Pass rate · count100% (2/2)100% (2/2)')
    expect(await page.getByTestId('category-money').textContent()).toBe('Pass rate · money0% (0/2)100% (2/2)')
    expect(await page.getByTestId('matrix-model-0').textContent()).toContain('half')
    expect(await page.getByTestId('cell-total_revenue-0').textContent()).toBe('wrong')
    expect(await page.getByTestId('cell-total_revenue-1').textContent()).toBe('pass')
    expect(await page.getByTestId('chat-list').locator('.chat-link').count()).toBe(0)
    expect(await page.getByTestId('chat-list').textContent()).not.toContain('Test:')
    expect(await glassbox.listChats({})).toEqual([])
    await ui.screenshot('eval-01-matrix')
  })

  it('opens a failing case: outcome, SQL, both tables, figures, the audit naming orders’ unread columns.md, and its run in the inspector', async () => {
    const { page } = ui
    await page.getByTestId('cell-total_revenue-0').click()
    const detail = page.getByTestId('case-detail')
    await detail.waitFor()
    const text = (await detail.textContent()) ?? ''
    expect(text).toContain('failed: wrong result')
    expect(text).toContain('SELECT COUNT(*) AS revenue FROM orders')
    expect(text).toContain('Expected')
    expect(text).toMatch(/2 tool rounds/)
    expect(text).toMatch(/tokens in \/ \d+ out/)
    // The verdict names the rule that decided it and where both sides ran; each table says its database.
    expect(await page.getByTestId('case-verdict').textContent()).toMatch(/^failed: no answer column holds the values of expected column 1 .*; both ran on shop$/)
    expect(text).toContain('Expected on shop')
    expect(text).toContain('Agent’s result on shop')
    const audit = (await page.getByTestId('context-audit').textContent()) ?? ''
    expect(audit).toContain('databases/type=duckdb/database=shop/schema=main/table=orders/description.md')
    expect(audit).toContain('main.orders never read: columns.md')
    await ui.screenshot('eval-02-failing-case-audit')
    await page.getByTestId('inspect-case-run').click()
    await expect.poll(() => page.locator('.inspector').textContent(), { timeout: 10_000 }).toContain('Exactly what was sent')
  })

  it('re-runs one cell into the same evaluation', async () => {
    const { page } = ui
    const before = (await glassbox.listEvaluations({})).length
    await page.getByTestId('rerun-cell').click()
    await expect.poll(() => page.getByTestId('test-summary').count(), { timeout: 20_000 }).toBe(1)
    expect((await glassbox.listEvaluations({})).length).toBe(before)
    expect(await page.getByTestId('pass-rate-0').textContent()).toBe('50% (2/4)')
  })

  it('after a RULES.md edit, a second evaluation fixes two cases; comparing the two shows them and the prompt diff', async () => {
    const { page } = ui
    project.addRule()
    await expect.poll(async () => (await glassbox.previewPrompt({ question: '', testMode: true })).system, { timeout: 15_000 }).toContain(RULE)
    await page.getByTestId('pick-model-all').uncheck()
    await expect.poll(() => page.getByTestId('run-tests').textContent()).toBe('Run 4 tests')
    await page.getByTestId('run-tests').click()
    await expect.poll(() => page.getByTestId('history-item').count(), { timeout: 30_000 }).toBe(2)
    await expect.poll(() => page.getByTestId('pass-rate-0').textContent()).toBe('100% (4/4)')
    const boxes = page.getByTestId('eval-history').getByRole('checkbox')
    await boxes.nth(0).check()
    await boxes.nth(1).check()
    await page.getByTestId('compare-evaluations').click()
    const fixed = (await page.getByTestId('fixed-cases').textContent()) ?? ''
    expect(fixed).toContain('total_revenue')
    expect(fixed).toContain('return_rate')
    expect(fixed).toContain('failed: wrong result → passed')
    expect(await page.getByTestId('comparison').textContent()).toContain('2 fixed')
    const diff = (await page.getByTestId('prompt-diff').textContent()) ?? ''
    expect(diff).toContain(`+${RULE}`)
    await page.getByTestId('comparison').scrollIntoViewIfNeeded()
    await ui.screenshot('eval-03-comparison')
  })

  it('shows progress while a model works and cancels the evaluation', async () => {
    const { page } = ui
    await page.getByTestId('pick-model-half').uncheck()
    await page.getByTestId('pick-model-slow').check()
    await page.getByTestId('run-tests').click()
    await expect.poll(() => page.getByTestId('eval-progress').textContent(), { timeout: 10_000 }).toMatch(/^Case 1 of 4 · model 1 of 1 \(slow\) · \d+\.\d s elapsed$/)
    // The new evaluation's matrix replaces the old one at once, its running cell marked.
    await expect.poll(() => page.getByTestId('matrix-model-0').textContent()).toContain('slow')
    await page.getByTestId('eval-matrix').getByLabel('running').waitFor()
    await ui.screenshot('eval-04-progress')
    await page.getByTestId('cancel-evaluation').click()
    await expect.poll(() => page.getByTestId('history-item').count(), { timeout: 10_000 }).toBe(3)
    expect(await page.getByTestId('history-item').first().textContent()).toContain('cancelled')
    expect((await glassbox.listEvaluations({}))[0]).toMatchObject({ status: 'cancelled', models: [{ model: 'slow', passed: 0, total: 0 }] })
    expect(ui.consoleErrors).toEqual([])
  })

  // Colour contrast is left out here: the panel uses the app's shared colour tokens (.muted, .badge), whose
  // contrast the accessibility work (#16) fixes for every screen at once.
  it('has no serious or critical accessibility violations in the panel besides shared colours (axe-core)', async () => {
    const { page } = ui
    await page.getByTestId('history-item').nth(2).click()
    await page.getByTestId('cell-total_revenue-0').click()
    await page.getByTestId('context-audit').waitFor()
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'))
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe
      const result = await axe.run({ include: [['[data-testid="tests-panel"]']] }, { rules: { 'color-contrast': { enabled: false } } })
      return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
    })
    expect(violations).toEqual([])
  })
})
