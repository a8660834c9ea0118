import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Glassbox } from '../../src/main/app/create-glassbox'
import { runCli } from '../support/capture-io'
import { makeTempDir, REPO_ROOT } from '../support/fixtures'
import { bodyOf, isAgentRequest, latestTurn, startScriptedServer, type RecordedRequest, type ScriptedServer, type Turn } from '../support/scripted-openai-server'
import { describeWithBrowser } from './describe-with-browser'
import { startNewChat, waitForChatAtRest, waitForLastAnswerDone, type UiSession } from './harness'
import { openRealSession, type RealSession } from './real-session'
import { unusedLoopbackPort } from '../support/free-port'

// Issue #13 — the UI tells the truth. The real services (store in a temp folder, a copy of the nao-layout fixture,
// DuckDB) behind web mode, scripted OpenAI-compatible servers on loopback, the real renderer in Chromium.

/** The page's clipboard, for the functions evaluated in the browser (the Node types have no DOM). */
declare const navigator: { clipboard: { readText(): Promise<string> } }

const MONTHLY_SQL = "SELECT strftime(order_date, '%Y-%m') AS month, SUM(amount) AS revenue FROM orders GROUP BY 1 ORDER BY 1"
/** True for the nao-layout fixture's jaffle_shop.duckdb: 2018-01 522, 2018-02 403, 2018-03 559, 2018-04 250. */
const trueAnswer = (queryId: string): string =>
  `Revenue dipped from 522 in January to 403 in February, peaked at **559** in March, then fell to 250 in April, the lowest month (query \`${queryId}\`, column \`revenue\`).`
const ESSAY = 'The orders table records every purchase with its amount and date. '.repeat(300)

function script(request: RecordedRequest): Turn {
  if (!isAgentRequest(request)) {
    // Memory extraction: learns one standing instruction when the user gave it.
    return /always show revenue in EUR/i.test(request.rawBody)
      ? { text: '{"user_instructions": [{"content": "Always show revenue in EUR", "supersedes_id": null}], "user_profile": null}' }
      : { text: '{"user_instructions": null, "user_profile": null}' }
  }
  if (bodyOf(request).model !== 'scripted-model') return { fault: 'model-not-found' }
  const turn = latestTurn(request)
  const question = turn.question.toLowerCase()
  const toolResults = turn.toolResults
  if (question.includes('overflow')) return { fault: 'context-length' }
  if (question.includes('cut')) return { text: 'Revenue was 1,672 in', fault: 'disconnect' }
  if (question.includes('essay')) return { text: ESSAY }
  if (question.includes('eur')) return { text: 'Noted: revenue in EUR from now on.' }
  if (!question.includes('month by month')) return { text: 'Hello! Ask me about the jaffle shop data.' }
  if (toolResults.length === 0) return { toolCalls: [{ name: 'execute_sql', args: { sql_query: MONTHLY_SQL } }] }
  const queryId = /query_id: (\S+)/.exec(toolResults[0])?.[1] ?? 'q1'
  if (toolResults.length === 1) {
    return {
      toolCalls: [
        {
          name: 'display_chart',
          args: { query_id: queryId, chart_type: 'bar', x_axis_key: 'month', x_axis_type: 'category', series: [{ data_key: 'revenue', label: 'Revenue' }], title: 'Revenue by month' }
        }
      ]
    }
  }
  return { text: trueAnswer(queryId), chunkSize: 6, chunkDelayMs: 10 }
}


async function ask(page: Page, question: string): Promise<void> {
  // The chat is virtualised: count nothing, watch the newest answer's id change instead.
  const newest = page.locator('[data-role="assistant"]').last()
  await waitForChatAtRest(page, 20_000)
  const before = (await newest.count()) > 0 ? await newest.getAttribute('data-message-id', { timeout: 500 }).catch(() => null) : null
  await page.getByTestId('composer').fill(question)
  await page.keyboard.press('Enter')
  try {
    await expect.poll(async () => ((await newest.count()) > 0 ? await newest.getAttribute('data-message-id', { timeout: 500 }).catch(() => before) : null), { timeout: 20_000 }).not.toBe(before)
    await expect.poll(() => page.locator('[data-role="user"]').last().textContent(), { timeout: 5_000 }).toContain(question)
  } catch (error) {
    await page.screenshot({ path: join(REPO_ROOT, 'test-results', 'screenshots', 'truth-failed-ask.png') })
    throw error
  }
  // Rows re-render while the answer streams: read the status briefly each time rather than wait on one row.
  await expect.poll(() => newest.getAttribute('data-status', { timeout: 500 }).catch(() => 'streaming'), { timeout: 30_000 }).not.toBe('streaming')
}

async function saveSettings(page: Page, fields: { endpoint?: string; model?: string; contextWindow?: string }): Promise<void> {
  await page.getByTestId('nav-settings').click()
  if (fields.endpoint !== undefined) await page.getByTestId('settings-endpoint').fill(fields.endpoint)
  if (fields.model !== undefined) await page.getByTestId('settings-model').fill(fields.model)
  if (fields.contextWindow !== undefined) await page.getByTestId('settings-context-window').fill(fields.contextWindow)
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByTestId('settings-saved').waitFor()
}

async function tab(page: Page, name: string): Promise<void> {
  await page.locator('.tabs').getByRole('tab', { name }).click()
}

let session: RealSession
let model: ScriptedServer
let second: ScriptedServer
let glassbox: Glassbox
let ui: UiSession

beforeAll(async () => {
  // A vLLM-style server: the window is only in its /v1/models entry.
  session = await openRealSession({ script, models: [{ id: 'scripted-model', max_model_len: 32768 }] })
  ;({ model, glassbox, ui } = session)
  second = await startScriptedServer({ models: [{ id: 'second-model' }], script: [] })
  await ui.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.server.url.replace(/\/$/, '') })
}, 120_000)

afterAll(async () => {
  await session?.close()
  await second?.close()
})

describeWithBrowser('issue #13: the UI tells the truth', () => {
  it('opens with the composer ready, the project’s own example questions, and “1 test”', async () => {
    const { page } = ui
    await page.goto(ui.appUrl)
    await page.getByTestId('project-name').waitFor()
    await page.getByTestId('composer').waitFor()
    // The very first preview already budgets against the window the picker shows.
    await expect.poll(() => page.locator('.inspector-summary').textContent(), { timeout: 10_000 }).toContain('/ 32,768 tokens')
    expect(await page.locator('.inspector-summary').textContent()).not.toContain('window unknown')
    expect(await page.locator('.example-questions').textContent()).toContain('What is the total revenue from all orders?')
    expect(await page.locator('.project-meta').textContent()).toBe('8 tables · 2 skills · 1 test')
    await ui.screenshot('truth-01-first-open')
    await page.getByTestId('composer').fill('Hello there')
    await page.keyboard.press('Enter')
    await waitForLastAnswerDone(page)
    expect(await page.getByTestId('assistant-text').last().textContent()).toContain('Ask me about the jaffle shop data')
    expect(await page.locator('[data-role="user"]').first().textContent()).toContain('Hello there')
    expect(await page.getByTestId('chat-list').locator('li').count()).toBe(1)
  }, 60_000)

  it('uses one context window — picker, budget bar and prompt --json — and says where it came from', async () => {
    const { page } = ui
    expect(await page.getByTestId('model-picker').textContent()).toContain('scripted-model · 32k ctx')
    expect(await page.getByTestId('model-picker').locator('option', { hasText: 'scripted-model · 32k ctx' }).getAttribute('title')).toBe(
      // The full model id first (a served .gguf path is shown by its name in the list), then where the window came from.
      'scripted-model\nContext window 32,768 tokens, from vLLM /v1/models max_model_len'
    )
    await page.getByTestId('composer').fill('How many orders are there?')
    await tab(page, 'Request')
    await expect.poll(() => page.getByTestId('budget').textContent(), { timeout: 10_000 }).toContain('of 32,768 tokens')
    expect(await page.getByTestId('context-source').textContent()).toBe('Context window 32,768 tokens, from vLLM /v1/models max_model_len')
    await ui.screenshot('truth-02-context-window')
    const cliData = makeTempDir()
    try {
      const cli = await runCli(['prompt', '--project', glassbox.session().snapshot().root, '--data-dir', cliData.dir, '--endpoint', model.url, '--model', 'scripted-model', '--question', 'hi', '--json'])
      expect(JSON.parse(cli.stdout).budget).toMatchObject({ contextWindow: 32768, contextSource: 'vLLM /v1/models max_model_len' })
    } finally {
      cliData.cleanup()
    }
    await page.getByTestId('composer').fill('')
  }, 60_000)

  it('counts the system prompt once: the System tab total is the Request tab’s system tokens', async () => {
    const { page } = ui
    await tab(page, 'Request')
    const legend = page.getByTestId('budget').locator('.budget-legend li', { hasText: 'System prompt' }).locator('.legend-value')
    const requestSystem = (await legend.textContent()) ?? ''
    await tab(page, 'System')
    const total = (await page.getByTestId('system-total').textContent()) ?? ''
    expect(requestSystem).toMatch(/^[\d,]+$/)
    expect(total).toMatch(new RegExp(`· ${requestSystem} tokens \\(estimated`))
  }, 60_000)

  it('lists every request of a three-round run and copies each body exactly as the server received it', async () => {
    const { page } = ui
    const before = model.chatRequests().length
    await ask(page, 'How did revenue evolve month by month?')
    await page.getByTestId('chart').waitFor({ timeout: 20_000 })
    await waitForLastAnswerDone(page)
    expect(await page.getByTestId('assistant-text').last().textContent()).toContain('peaked at 559 in March')
    const shot = await ui.screenshot('truth-03-answer-sql-chart')
    mkdirSync(join(REPO_ROOT, 'test-results'), { recursive: true })
    copyFileSync(shot, join(REPO_ROOT, 'test-results', 'readme-screenshot.png'))

    const sent = model.chatRequests().slice(before).filter(isAgentRequest)
    expect(sent.length).toBe(3)
    await page.locator('[data-role="assistant"]').last().hover()
    await page.locator('[data-role="assistant"]').last().getByRole('button', { name: 'Inspect prompt' }).click()
    await tab(page, 'Request')
    const rounds = page.getByTestId('round-button')
    await expect.poll(() => rounds.count(), { timeout: 10_000 }).toBe(3)
    for (let round = 0; round < 3; round++) {
      await rounds.nth(round).click()
      await page.getByTestId('copy-request').click()
      await expect.poll(() => page.getByTestId('copy-request').textContent()).toBe('Copied')
      const copied = await page.evaluate(() => navigator.clipboard.readText())
      expect(copied === sent[round].rawBody).toBe(true)
    }
    const last = page.getByTestId('round-messages')
    const roles = await last.locator('.role-badge').allTextContents()
    expect(roles).toEqual(expect.arrayContaining(['system', 'user', 'assistant', 'tool']))
    expect(roles.filter((role) => role === 'tool').length).toBe(2)
    expect(await last.textContent()).toContain('display_chart')
    expect(await page.getByTestId('request-params').textContent()).toContain('"scripted-model"')
    expect(await page.getByTestId('run-rounds').textContent()).toContain('Tool schemas')
    await ui.screenshot('truth-04-run-rounds')
    await page.getByRole('button', { name: 'Back to live preview' }).click()
  }, 60_000)

  it('announces a learned memory with undo, explains why the run did not use it, and lists disabled ones', async () => {
    const { page } = ui
    await ask(page, 'From now on, always show revenue in EUR.')
    const notice = page.locator('.toast', { hasText: 'Learned: Always show revenue in EUR.' })
    await notice.waitFor({ timeout: 15_000 })
    // Notices never cover the composer.
    const [toastBox, composerBox] = [await notice.boundingBox(), await page.locator('.composer').boundingBox()]
    expect(toastBox && composerBox && (toastBox.y + toastBox.height <= composerBox.y || toastBox.x + toastBox.width <= composerBox.x)).toBe(true)
    await ui.screenshot('truth-05-learned-notice')
    await notice.getByRole('button', { name: 'Undo' }).click()
    await expect.poll(async () => (await glassbox.listMemories({})).length).toBe(0)

    await ask(page, 'Again: always show revenue in EUR, please.')
    await page.locator('.toast', { hasText: 'Learned: Always show revenue in EUR.' }).waitFor({ timeout: 15_000 })
    await page.locator('[data-role="assistant"]').last().hover()
    await page.locator('[data-role="assistant"]').last().getByRole('button', { name: 'Inspect prompt' }).click()
    await tab(page, 'Memory')
    await expect.poll(() => page.getByTestId('memory-learned-after').textContent(), { timeout: 10_000 }).toContain('learned after this prompt was built — applies from the next message')
    await ui.screenshot('truth-06-learned-after')
    await page.getByRole('button', { name: 'Back to live preview' }).click()
    await expect.poll(() => page.getByTestId('memory-included').textContent(), { timeout: 10_000 }).toContain('Always show revenue in EUR.')

    await page.getByTestId('nav-memory').click()
    await page.getByTestId('memory-input').fill('The user is on the growth team.')
    await page.getByRole('button', { name: 'Add memory' }).click()
    const row = page.getByTestId('memory-table').locator('li', { hasText: 'growth team' })
    await row.waitFor()
    await row.getByRole('button', { name: /Disable/i }).click()
    await page.getByTestId('nav-memory').click()
    await tab(page, 'Memory')
    await expect.poll(() => page.getByTestId('memory-disabled').textContent(), { timeout: 10_000 }).toContain('The user is on the growth team.')

    // The slider spans what the memories need, not 0–4,000.
    const max = Number(await page.getByTestId('memory-budget').getAttribute('max'))
    expect(max).toBeLessThanOrEqual(1000)
    // One preview across tabs until reset.
    await page.getByTestId('memory-budget').fill('0')
    await expect.poll(() => page.locator('.memory-tab-status').textContent()).toContain('preview, not saved')
    await tab(page, 'System')
    await page.getByTestId('memory-trial').waitFor()
    await expect.poll(() => page.getByTestId('system-text').textContent(), { timeout: 10_000 }).not.toContain('Always show revenue in EUR.')
    expect(await page.getByTestId('memory-trial').isVisible()).toBe(true)
    await ui.screenshot('truth-07-memory-trial-across-tabs')
    await page.getByTestId('memory-trial').getByRole('button', { name: 'Reset' }).click()
    await expect.poll(() => page.getByTestId('system-text').textContent(), { timeout: 10_000 }).toContain('Always show revenue in EUR.')
  }, 60_000)

  it('says each failure once, in place, with the reason and what to do', async () => {
    const { page } = ui
    const newest = page.locator('[data-role="assistant"]').last()
    const once = async (): Promise<string> => {
      await expect.poll(() => newest.getAttribute('data-status'), { timeout: 15_000 }).toBe('failed')
      await expect.poll(() => newest.getByTestId('run-error').count()).toBe(1)
      expect(await page.locator('.toast.error').count()).toBe(0)
      return (await newest.getByTestId('run-error').textContent()) ?? ''
    }

    await ask(page, 'Please overflow the window')
    const overflow = await once()
    expect(overflow).toMatch(/context window is 4,096 tokens and this request needed 9,000/)
    expect(overflow).toMatch(/Glassbox fitted the request to [\d,]+ of 32,768 tokens \(vLLM \/v1\/models max_model_len\)/)
    expect(overflow).not.toMatch(/langchain|https?:/i)
    expect(await newest.getByTestId('assistant-text').count()).toBe(0)
    await ui.screenshot('truth-08-error-overflow')

    await ask(page, 'What if the stream is cut?')
    const cut = await once()
    expect(cut).toMatch(/lost mid-answer/)
    expect(await newest.getByTestId('assistant-text').textContent()).toContain('Revenue was 1,672 in')

    await saveSettings(page, { model: 'qwen3:80b' })
    await page.getByTestId('nav-settings').click()
    await expect.poll(() => page.getByTestId('model-warning').textContent(), { timeout: 10_000 }).toContain('“qwen3:80b” is not among those')
    await ask(page, 'Hi there')
    expect(await once()).toBe(`The model server at ${model.url} does not have the model “qwen3:80b”. It serves: scripted-model. Pick one in the model picker.Open the model server settings`)
    await ui.screenshot('truth-09-error-unknown-model')

    const port = await unusedLoopbackPort()
    await saveSettings(page, { endpoint: `http://127.0.0.1:${port}/v1`, model: 'qwen3:8b' })
    await page.getByTestId('nav-settings').click()
    await ask(page, 'Hi again')
    const down = await once()
    expect(down).toContain(`Could not reach the model server at http://127.0.0.1:${port}/v1: nothing is listening there (connection refused).`)
    expect(down).toContain('llama-server -m model.gguf')
    await ui.screenshot('truth-10-error-server-down')
  }, 60_000)

  it('refreshes the model list when settings are saved', async () => {
    const { page } = ui
    await saveSettings(page, { endpoint: second.url, model: 'second-model' })
    // Without pressing ↻: the saved server is detected again, so its model is no longer "(not detected)".
    await expect.poll(() => page.getByTestId('model-picker').textContent(), { timeout: 10_000 }).not.toContain('(not detected)')
    expect(await page.getByTestId('model-picker').textContent()).toContain('second-model')
    expect(await page.getByTestId('model-picker').inputValue()).toBe(`${second.url}|second-model`)
    // This server says nothing of its window (like llama-cpp-python): the budget says so.
    await tab(page, 'Request')
    await expect.poll(() => page.getByTestId('context-source').textContent(), { timeout: 10_000 }).toContain('Context window: unknown — set it in settings.')
    expect(await page.locator('.inspector-summary').textContent()).toContain('window unknown')
    await ui.screenshot('truth-10b-window-unknown')
    await page.getByTestId('nav-settings').click()
  }, 60_000)

  it('marks where the model stops seeing archived history, against the window set in settings', async () => {
    const { page } = ui
    await saveSettings(page, { endpoint: model.url, model: 'scripted-model', contextWindow: '12000' })
    await page.getByTestId('nav-settings').click()
    await startNewChat(page)
    await ask(page, 'Write an essay about the orders table')
    await ask(page, 'Another essay, please')
    await page.getByTestId('archive-marker').waitFor({ timeout: 15_000 })
    await tab(page, 'Request')
    await expect.poll(() => page.getByTestId('context-source').textContent()).toBe('Context window 12,000 tokens, from settings')
    await ui.screenshot('truth-11-archive-marker')
    expect(ui.consoleErrors).toEqual([])
  }, 60_000)
})
