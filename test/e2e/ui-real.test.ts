import { afterAll, beforeAll, expect, it } from 'vitest'
import { isAgentRequest, latestTurn, type RecordedRequest, type Turn } from '../support/scripted-openai-server'
import { describeWithBrowser } from './describe-with-browser'
import { waitForLastAnswerDone, type UiSession } from './harness'
import { openRealSession, type RealSession } from './real-session'

// The real services (store in a temp folder, the nao-layout fixture, DuckDB) behind web mode, a scripted
// OpenAI-compatible model server on loopback, and the real renderer in headless Chromium.

const MONTHLY_SQL = "SELECT strftime(order_date, '%Y-%m') AS month, SUM(amount) AS revenue FROM orders GROUP BY 1 ORDER BY 1"
// True for the example's data (496, 415, 622, 139), so no screenshot shows an answer its chart contradicts.
const ANSWER = 'Revenue dipped from January to February, peaked in **March** (622), then fell to its lowest in April (query `q1`, column `revenue`).'

/** The model's side of each conversation, chosen by the last question and the tool results so far. */
function script(request: RecordedRequest): Turn {
  if (!isAgentRequest(request)) return { text: '{"user_instructions": null, "user_profile": null}' }
  const turn = latestTurn(request)
  const question = turn.question.toLowerCase()
  const toolResults = turn.toolResults
  if (question.includes('slow')) return { text: 'Counting the orders one by one, '.repeat(60), chunkSize: 4, chunkDelayMs: 60 }
  if (question.includes('sales') && toolResults.length === 0) {
    return { toolCalls: [{ name: 'clarification', args: { question: 'Which sales do you mean?', options: ['Order amounts', 'Number of orders'] } }] }
  }
  if (!question.includes('revenue')) return { text: 'Hello! Ask me about the jaffle shop data.' }
  if (toolResults.length === 0) return { reasoning: 'orders has amount and order_date.', toolCalls: [{ name: 'execute_sql', args: { sql_query: MONTHLY_SQL } }] }
  if (toolResults.length === 1) {
    const queryId = /query_id: (\S+)/.exec(toolResults[0])?.[1] ?? 'q1'
    return {
      toolCalls: [
        {
          name: 'display_chart',
          args: { query_id: queryId, chart_type: 'bar', x_axis_key: 'month', x_axis_type: 'category', series: [{ data_key: 'revenue', label: 'Revenue' }], title: 'Revenue by month' }
        }
      ]
    }
  }
  if (toolResults.length === 2) return { toolCalls: [{ name: 'suggest_follow_ups', args: { suggestions: ['Break it down by payment method', 'Compare with 2017'] } }] }
  return { text: ANSWER, chunkSize: 6, chunkDelayMs: 25 }
}

let session: RealSession
let ui: UiSession

beforeAll(async () => {
  session = await openRealSession({ script })
  ui = session.ui
  await ui.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ui.appUrl).origin })
}, 120_000)

afterAll(async () => {
  await session?.close()
})

describeWithBrowser('web UI on the real services', () => {
  it('opens the nao-layout fixture and previews its real prompt', async () => {
    const { page } = ui
    await page.goto(ui.appUrl)
    await page.getByTestId('project-name').waitFor()
    await expect.poll(() => page.getByTestId('system-text').textContent(), { timeout: 15_000 }).toContain('## SQL Query Rules')
    await expect.poll(() => page.getByTestId('outline').locator('li').count()).toBeGreaterThan(4)
    await ui.screenshot('real-01-home')
  })

  it('attaches a table with @ and shows its columns.md in the user prompt', async () => {
    const { page } = ui
    // The composer is there at first open: no chat needs to exist to type (issue #13).
    const composer = page.getByTestId('composer')
    await composer.pressSequentially('Revenue by status in @ord')
    await expect.poll(() => page.getByTestId('mention-menu').textContent()).toContain('@orders')
    await page.keyboard.press('Enter')
    await page.locator('.tabs').getByRole('tab', { name: 'User' }).click()
    await expect.poll(() => page.getByTestId('user-text').textContent(), { timeout: 10_000 }).toContain('columns.md')
    await page.getByTestId('outline').count()
    await ui.screenshot('real-01b-user-prompt-with-table')
    await composer.fill('')
    await page.locator('.composer-chips .chip-remove').click()
    await page.locator('.tabs').getByRole('tab', { name: 'System' }).click()
  })

  it('asks, streams the answer, shows the SQL call with its table and the chart', async () => {
    const { page } = ui
    await page.getByTestId('composer').fill('How did revenue evolve month by month?')
    await page.keyboard.press('Enter')
    await page.locator('[data-status="streaming"]').first().waitFor()
    await page.getByTestId('chart').waitFor({ timeout: 20_000 })
    await page.locator('[data-role="assistant"][data-status="done"]').waitFor({ timeout: 20_000 })
    expect(await page.getByTestId('assistant-text').last().textContent()).toContain('peaked in March (622)')
    const call = page.locator('[data-tool="execute_sql"]').first()
    await call.getByRole('button').first().click()
    await expect.poll(() => call.locator('.result-table tbody tr').count()).toBeGreaterThan(1)
    expect(await call.textContent()).toContain('GROUP BY 1')
    expect(await page.getByTestId('chart').locator('svg .recharts-bar-rectangle').count()).toBeGreaterThan(1)
    expect(await page.getByTestId('follow-ups').textContent()).toContain('Break it down by payment method')
    await ui.screenshot('real-02-answer-sql-chart')
  })

  it('asks back with a clarification card and answers it', async () => {
    const { page } = ui
    await page.getByTestId('composer').fill('What were our sales?')
    await page.keyboard.press('Enter')
    await page.getByTestId('clarification').waitFor({ timeout: 15_000 })
    expect(await page.getByTestId('clarification').textContent()).toContain('Which sales do you mean?')
    await ui.screenshot('real-02b-clarification')
    await page.getByTestId('clarification').getByRole('button', { name: 'Order amounts' }).click()
    await expect.poll(() => page.locator('[data-role="user"]').last().textContent(), { timeout: 10_000 }).toContain('Order amounts')
    await waitForLastAnswerDone(page)
    await expect.poll(() => page.getByTestId('assistant-text').last().textContent()).toContain('Ask me about the jaffle shop data')
  })

  it('drops the clarification rule from the prompt in test mode', async () => {
    const { page } = ui
    await page.locator('.tabs').getByRole('tab', { name: 'System' }).click()
    await expect.poll(() => page.getByTestId('system-text').textContent()).toContain('clarification')
    await page.getByTestId('test-mode').check({ force: true })
    await expect.poll(() => page.getByTestId('system-text').textContent(), { timeout: 10_000 }).not.toContain('clarification')
    await page.locator('.tabs').getByRole('tab', { name: 'Test mode' }).click()
    await expect.poll(() => page.locator('.diff-line.removed').count()).toBeGreaterThan(0)
    await ui.screenshot('real-03-test-mode-diff')
    await page.getByTestId('test-mode').uncheck({ force: true })
  })

  it('adds memories, shows them in the Memory tab, and trims them on a smaller budget', async () => {
    const { page } = ui
    await page.getByTestId('nav-memory').click()
    for (const content of ['Always show revenue in EUR as well as USD.', 'The user reports to the CFO every month.']) {
      await page.getByTestId('memory-input').fill(content)
      await page.getByRole('button', { name: 'Add memory' }).click()
      await expect.poll(() => page.getByTestId('memory-table').textContent()).toContain(content)
    }
    await page.locator('.tabs').getByRole('tab', { name: 'Memory' }).click()
    await expect.poll(() => page.getByTestId('memory-included').textContent()).toContain('Always show revenue in EUR')
    await page.getByTestId('memory-budget').fill('10')
    await expect.poll(() => page.getByTestId('memory-dropped').locator('li').count(), { timeout: 10_000 }).toBeGreaterThan(0)
    await ui.screenshot('real-04-memory-trimmed')
    await page.getByRole('button', { name: 'Reset' }).click()
    await page.getByTestId('nav-memory').click()
  })

  it('stops a run mid-stream', async () => {
    const { page } = ui
    await page.getByTestId('composer').fill('Count them slowly please')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('[data-status="streaming"] [data-testid="assistant-text"]').count(), { timeout: 15_000 }).toBe(1)
    await page.getByTestId('stop').click()
    await page.locator('[data-role="assistant"][data-status="cancelled"]').waitFor({ timeout: 10_000 })
    const partial = (await page.getByTestId('assistant-text').last().textContent()) ?? ''
    expect(partial.length).toBeGreaterThan(0)
    expect(partial.length).toBeLessThan('Counting the orders one by one, '.repeat(60).length)
    await ui.screenshot('real-05-stopped')
    expect(ui.consoleErrors).toEqual([])
  })

  it('shows exactly what a run sent', async () => {
    const { page } = ui
    await page.locator('[data-role="assistant"]').first().hover()
    await page.getByRole('button', { name: 'Inspect prompt' }).first().click()
    await page.getByText(/Exactly what was sent/).waitFor()
    // How the run ended and what the server counted (the scripted server reports usage).
    await expect.poll(() => page.getByTestId('run-outcome').textContent()).toMatch(/^Tokens counted by the server: [\d,]+ in, [\d,]+ out\.$/)
    await page.locator('.tabs').getByRole('tab', { name: 'Request' }).click()
    await expect.poll(() => page.locator('.request-message .role-badge').allTextContents()).toContain('system')
    // Each round's copied request is, byte for byte, a body the server received, in the order it received them.
    const received = session.model.chatRequests().map((request) => request.rawBody)
    const rounds = page.getByTestId('round-button')
    const roundCount = await rounds.count()
    expect(roundCount).toBeGreaterThan(0)
    const positions: number[] = []
    for (let round = 0; round < roundCount; round++) {
      await rounds.nth(round).click()
      await page.getByTestId('copy-request').click()
      await expect.poll(() => page.getByTestId('copy-request').textContent()).toBe('Copied')
      const copied = await page.evaluate(() => Reflect.get(globalThis, 'navigator').clipboard.readText())
      expect(typeof copied === 'string' && received.includes(copied)).toBe(true)
      positions.push(received.indexOf(copied))
    }
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
    expect(new Set(positions).size).toBe(roundCount)
    await ui.screenshot('real-06-run-request')
  })
})
