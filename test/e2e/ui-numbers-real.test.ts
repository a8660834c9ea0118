import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { Page } from 'playwright-core'
import type { Glassbox } from '../../src/main/app/create-glassbox'
import { createGlassbox } from '../../src/main/app/create-glassbox'
import { copyNaoLayout, makeTempDir } from '../support/fixtures'
import { unusedLoopbackPort } from '../support/free-port'
import { findLlamaServer, startLlamaServer, type LlamaLocation, type RunningLlama } from '../support/llama-server'
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server'
import { describeWithBrowser } from './describe-with-browser'
import { openUi, startNewChat, waitForChatAtRest, type UiSession } from './harness'

// Every number on screen is live and adds up, against the real llama.cpp server (tiny planted model): the
// window re-read after a restart with another -c, the inspector saying what it shows and following chats and
// versions, per-round counts that sum to the run's, the model the server reported, memory's outcome, and the
// layout fixes — at 1440×900 and 1024×700. A second (scripted) server added in Settings joins the picker.

const found = findLlamaServer()
const location: LlamaLocation | null = 'missing' in found ? null : found
if (!location) console.info(`[numbers e2e skipped] ${'missing' in found ? found.missing : ''}`)
vi.setConfig({ testTimeout: 180_000, hookTimeout: 90_000 })

const describeReal = location ? describeWithBrowser : (name: string, body: () => void) => describeWithBrowser(`${name} (skipped: no llama-server)`, () => it.skip('needs llama-server', body))

let llama: RunningLlama
let port: number
let glassbox: Glassbox
let ui: UiSession
let second: ScriptedServer
const cleanups: (() => void)[] = []

beforeAll(async () => {
  if (!location) return
  port = await unusedLoopbackPort()
  llama = await startLlamaServer(location, 'tiny-steered', ['-c', '8192', '--jinja'], port)
  second = await startScriptedServer({ models: [{ id: 'second-server-model' }] })
  const project = copyNaoLayout()
  const data = makeTempDir('glassbox-numbers-')
  cleanups.push(project.cleanup, data.cleanup)
  glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: llama.url, model: llama.model, watch: false })
  ui = await openUi(glassbox)
  await ui.page.goto(ui.appUrl)
  await ui.page.getByTestId('project-name').waitFor()
})

afterAll(async () => {
  await ui?.close()
  await glassbox?.close()
  await llama?.stop()
  await second?.close()
  cleanups.splice(0).forEach((cleanup) => cleanup())
})

async function ask(page: Page, question: string): Promise<void> {
  const before = await page.locator('[data-role="assistant"]').count()
  await page.getByTestId('composer').fill(question)
  await page.keyboard.press('Enter')
  await expect.poll(() => page.locator('[data-role="assistant"]').count(), { timeout: 30_000 }).toBeGreaterThan(before)
  await waitForChatAtRest(page, 60_000)
}

async function restartLlama(contextWindow: number): Promise<void> {
  await llama.stop()
  if (!location) return
  llama = await startLlamaServer(location, 'tiny-steered', ['-c', String(contextWindow), '--jinja'], port)
}

const inspectorSource = (page: Page) => page.getByTestId('inspector-source')

describeReal('numbers that are live and add up (real llama-server)', () => {
  it('shows the model’s name in the picker, the model the server reported, each round’s counts, and memory’s outcome', async () => {
    const { page } = ui
    const picker = page.getByTestId('model-picker')
    await expect.poll(() => picker.locator('option:checked').textContent()).toMatch(/^tiny-steered · 8k ctx/)
    expect(await picker.locator('option:checked').getAttribute('title')).toContain(llama.model)

    await ask(page, 'What is the total revenue?')
    const answer = page.locator('[data-role="assistant"]').last()
    await expect.poll(() => answer.getByTestId('answer-model').textContent()).toBe('tiny-steered')
    expect(await answer.getByTestId('answer-model').getAttribute('title')).toContain(llama.model)
    // Memory's outcome is said under the answer, whatever it is (the tiny model rarely writes valid JSON).
    await answer.getByTestId('memory-outcome').waitFor({ timeout: 60_000 })

    // The per-round counts in the inspector sum to the figures under the answer and to what the server reported.
    await answer.hover()
    await page.getByRole('button', { name: 'Inspect prompt' }).last().click()
    await expect.poll(() => inspectorSource(page).textContent()).toMatch(/Stored run\. Exactly what was sent for the answer in “What is the total revenue\?”/)
    await page.locator('.tabs').getByRole('tab', { name: 'Request' }).click()
    const runId = (await page.locator('.inspector-source .technical-id').getAttribute('title'))?.replace('run ', '') ?? ''
    const run = await glassbox.getRun({ runId })
    const rounds = run.requests ?? []
    expect(rounds.length).toBeGreaterThan(0)
    expect(rounds.every((round) => round.usage)).toBe(true)
    const sum = rounds.reduce((total, round) => total + (round.usage?.inputTokens ?? 0), 0)
    expect(run.usage?.inputTokens).toBe(sum)
    const last = rounds[rounds.length - 1]
    await expect.poll(() => page.getByTestId('round-usage').textContent()).toContain(`${last.usage?.inputTokens.toLocaleString('en-US')} prompt tokens in`)
    const figures = (await answer.getByTestId('message-figures').textContent()) ?? ''
    expect(figures).toContain(`${sum.toLocaleString('en-US')} → ${rounds.reduce((total, round) => total + (round.usage?.outputTokens ?? 0), 0).toLocaleString('en-US')} tokens`)
    expect(run.servedModel).toBe(llama.model)
    await expect.poll(() => page.getByTestId('context-source').textContent()).toContain('8,192 tokens, from llama.cpp /props n_ctx')
    await ui.screenshot('numbers-01-stored-run-rounds')
  })

  it('re-reads the window after a restart with -c 2048: picker, budget and refusal agree; the inspector warns about the next request over a stored run', async () => {
    const { page } = ui
    await restartLlama(2048)
    await page.getByTitle('Detect model servers again').click()
    await expect.poll(() => page.getByTestId('model-picker').locator('option:checked').textContent()).toMatch(/2k ctx/)

    // A 2,400-token question typed while a stored run is shown: the warning about it is visible above the run.
    const long = `Summarise this: ${'revenue per customer segment over time '.repeat(400)}`
    await page.getByTestId('composer').fill(long)
    await expect.poll(() => page.getByTestId('next-request-warning').textContent(), { timeout: 20_000 }).toMatch(/of 2,048 tokens .* over the window/)
    await ui.screenshot('numbers-02-warning-over-stored-run')

    // The live preview never says it fits while it is over the window.
    await page.getByRole('button', { name: 'Show the live preview' }).click()
    await expect.poll(() => inspectorSource(page).textContent()).toContain('Live preview')
    await page.locator('.tabs').getByRole('tab', { name: 'Request' }).click()
    await expect.poll(() => page.getByTestId('context-source').textContent()).toContain('2,048 tokens, from llama.cpp /props n_ctx')
    await page.getByTestId('trims-over').waitFor()
    expect(await page.getByText('Nothing was trimmed: the whole request fits.').count()).toBe(0)
    expect(await page.getByTestId('budget-estimate').textContent()).toContain('estimated')

    // The System tab's top-level rows (and what lies between them) add up to its header, at the same scale.
    await page.locator('.tabs').getByRole('tab', { name: 'System' }).click()
    const header = (await page.getByTestId('system-total').textContent()) ?? ''
    expect(header).toContain('estimated')
    const total = Number(/· ([\d,]+) tokens/.exec(header)?.[1].replace(/,/g, ''))
    const rows = await page.locator('[data-testid="outline"] > li:not(.nested) .outline-tokens').allTextContents()
    expect(rows.reduce((sum, row) => sum + Number(row.replace(/[^\d-]/g, '')), 0)).toBe(total)
    await page.locator('.tabs').getByRole('tab', { name: 'Request' }).click()

    // Sent anyway: refused before sending, with the window the server has now.
    const answers = await page.locator('[data-role="assistant"]').count()
    await page.getByTestId('composer').press('Enter')
    await expect.poll(() => page.locator('[data-role="assistant"]').count(), { timeout: 30_000 }).toBeGreaterThan(answers)
    const refused = page.locator('[data-role="assistant"]').last()
    await expect.poll(() => refused.getAttribute('data-status'), { timeout: 60_000 }).toBe('failed')
    const message = (await refused.textContent()) ?? ''
    expect(message).toContain('2,048')
    expect(message).not.toContain('8,192')
    // The refused question was never answered: no "archived" divider appears for it.
    await waitForChatAtRest(page, 30_000)
    expect(await page.getByText('The model no longer sees the messages above').count()).toBe(0)
    await ui.screenshot('numbers-03-refused-with-new-window')
  })

  it('follows the chat and the answer version, and Enter in the edit box resends', async () => {
    const { page } = ui
    // Edit the first question with Enter (Shift+Enter would be a new line): a second version.
    const question = page.locator('[data-role="user"]').first()
    await question.hover()
    await question.getByRole('button', { name: 'Edit' }).click()
    const edit = page.getByTestId('edit-question')
    await edit.fill('What is the total revenue, in EUR?')
    await edit.press('Shift+Enter')
    expect(await edit.inputValue()).toBe('What is the total revenue, in EUR?\n')
    await edit.press('Enter')
    await waitForChatAtRest(page, 60_000)
    const switcher = page.getByTestId('version-switcher').first()
    await expect.poll(() => switcher.textContent(), { timeout: 30_000 }).toContain('2/2')
    // Sent as typed before Enter: the new line from Shift+Enter is the only one, trimmed like any message.
    expect((await page.locator('[data-role="user"]').first().textContent()) ?? '').toContain('What is the total revenue, in EUR?')

    const answer = page.locator('[data-role="assistant"]').first()
    await answer.hover()
    await answer.getByRole('button', { name: 'Inspect prompt' }).click()
    await expect.poll(() => inspectorSource(page).textContent()).toContain('version 2 of 2')
    const versionTwo = await page.locator('.inspector-source .technical-id').getAttribute('title')
    await switcher.getByRole('button', { name: 'Previous version' }).click()
    await expect.poll(() => inspectorSource(page).textContent()).toContain('version 1 of 2')
    expect(await page.locator('.inspector-source .technical-id').getAttribute('title')).not.toBe(versionTwo)
    await ui.screenshot('numbers-04-inspector-follows-version')

    // Another chat: the inspector leaves the old chat's answer for the live preview of the new one.
    await startNewChat(page)
    await expect.poll(() => inspectorSource(page).textContent()).toContain('Live preview')

    // The memory budget slider keeps its scale while a budget is tried (15 stays 15 on a 0–1,000 scale).
    await page.locator('.tabs').getByRole('tab', { name: 'Memory' }).click()
    const slider = page.getByTestId('memory-budget')
    const max = await slider.getAttribute('max')
    await slider.focus()
    await page.keyboard.press('Home')
    for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowRight')
    await expect.poll(() => slider.inputValue()).toBe(String(3 * Number(await slider.getAttribute('step'))))
    expect(await slider.getAttribute('max')).toBe(max)
    await page.locator('.tabs').getByRole('tab', { name: 'Request' }).click()
    await page.getByTestId('memory-trial').getByRole('button', { name: 'Reset' }).click()
    // A second "New chat" reuses the empty one.
    const chats = await page.getByTestId('chat-list').locator('.chat-title', { hasText: /^New chat$/ }).count()
    await page.getByTestId('new-chat').click()
    await page.waitForTimeout(300)
    expect(await page.getByTestId('chat-list').locator('.chat-title', { hasText: /^New chat$/ }).count()).toBe(chats)
  })

  it('lists the models of a server added in Settings beside the first, in the Settings’ words when one is not there', async () => {
    const { page } = ui
    const closed = await unusedLoopbackPort()
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-panel').waitFor()
    for (const url of [second.url, `http://127.0.0.1:${closed}/v1`]) {
      await page.getByTestId('add-server').click()
      await page.getByTestId('server-url').last().fill(url)
    }
    await page.getByTestId('save-servers').click()
    await expect
      .poll(() => page.getByTestId('server-status').filter({ hasText: `127.0.0.1:${closed}` }).textContent(), { timeout: 20_000 })
      .toContain('nothing is listening there (connection refused)')
    const picker = page.getByTestId('model-picker')
    await expect.poll(() => picker.locator('option').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^second-server-model/), expect.stringMatching(/^tiny-steered/)]))
    await ui.screenshot('numbers-05-two-servers')
    // The Tests panel offers the models of both servers for one evaluation matrix.
    await page.getByTestId('nav-tests').click()
    await page.getByTestId('pick-model-second-server-model').waitFor({ timeout: 20_000 })
    await page.getByTestId(`pick-model-${llama.model}`).waitFor()
    await page.getByTestId('nav-tests').click()
  })

  it('keeps every top-bar control reachable at 1024×700', async () => {
    const narrow = await openUi(glassbox, { viewport: { width: 1024, height: 700 } })
    try {
      await narrow.page.goto(narrow.appUrl)
      await narrow.page.getByTestId('project-name').waitFor()
      const sync = narrow.page.getByTestId('sync')
      await sync.scrollIntoViewIfNeeded()
      const box = await sync.boundingBox()
      expect(box && box.x >= 0 && box.x + box.width <= 1024).toBe(true)
      await expect.poll(() => narrow.page.getByTestId('model-picker').locator('option:checked').textContent()).toMatch(/^tiny-steered/)
      await narrow.screenshot('numbers-06-narrow-topbar')

      // The inspector (a tab at this width) says which stored run it shows, over the chat.
      await narrow.page.getByTestId('chat-list').locator('.chat-title', { hasText: /^What is the total revenue\?$/ }).click()
      const answer = narrow.page.locator('[data-role="assistant"]').first()
      await answer.waitFor()
      await answer.hover()
      await answer.getByRole('button', { name: 'Inspect prompt' }).click()
      await expect.poll(() => narrow.page.getByTestId('inspector-source').textContent()).toMatch(/Stored run\. .*version \d of 2/)
      await narrow.screenshot('numbers-06b-narrow-stored-run')

      // Settings: the servers' controls are reachable.
      await narrow.page.getByTestId('nav-settings').click()
      const use = narrow.page.getByTestId('save-servers')
      await use.scrollIntoViewIfNeeded()
      const useBox = await use.boundingBox()
      expect(useBox && useBox.y + useBox.height <= 700 && useBox.x + useBox.width <= 1024).toBe(true)
    } finally {
      await narrow.close()
    }
  })

  it('labels an answer with the model that answered, and keeps the numbers honest when the server is killed mid-answer', async () => {
    const { page } = ui
    // Another model behind the same address: llama.cpp answers whatever name it is asked for.
    await llama.stop()
    if (!location) return
    llama = await startLlamaServer(location, 'tiny-steered-think', ['-c', '8192', '--jinja'], port)
    await startNewChat(page)
    await ask(page, 'Say anything.')
    const answer = page.locator('[data-role="assistant"]').last()
    await expect.poll(() => answer.getByTestId('answer-model').textContent(), { timeout: 60_000 }).toBe('tiny-steered-think')
    expect(await answer.getByTestId('answer-model').getAttribute('title')).toContain('asked for “' + (await glassbox.getSettings()).model)
    // The run found the window changed (2,048 → 8,192) and the picker was read again without ↻.
    await expect.poll(() => page.getByTestId('model-picker').textContent(), { timeout: 20_000 }).not.toContain('2k ctx')

    // Killed while it writes: what arrived is kept, the round says the server reported no counts.
    await llama.stop()
    // The random model writes until the output cap: long enough to be killed while it streams.
    llama = await startLlamaServer(location, 'tiny-random', ['-c', '8192'], port)
    await page.getByTestId('composer').fill('Say more.')
    await page.getByTestId('composer').press('Enter')
    await page.getByTestId('stop').waitFor({ timeout: 30_000 })
    await expect.poll(() => page.locator('[data-role="assistant"]').last().getByTestId('assistant-text').textContent(), { timeout: 30_000 }).not.toBe('')
    await llama.stop()
    const killed = page.locator('[data-role="assistant"]').last()
    await expect.poll(() => killed.getAttribute('data-status'), { timeout: 30_000 }).toBe('failed')
    await waitForChatAtRest(page, 30_000)
    expect(await killed.textContent()).toMatch(/lost mid-answer|closed the connection/)
    expect(await killed.getByTestId('message-figures').textContent()).not.toContain('→')
    await killed.hover()
    await killed.getByRole('button', { name: 'Inspect prompt' }).click()
    await page.locator('.tabs').getByRole('tab', { name: 'Request' }).click()
    await expect.poll(() => page.getByTestId('round-usage').textContent()).toContain('the server reported no token counts')
    await ui.screenshot('numbers-07-killed-mid-answer')
  })
})
