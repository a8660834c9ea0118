import os from 'node:os'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { seriousAxeViolations } from './axe'
import { createFakeApi, type FakeApi } from './fake-api'
import { describeWithBrowser } from './describe-with-browser'
import { openUi, type UiSession } from './harness'
import { startTaskTrace } from './trace'

// Daily-use features (#16) in the real renderer on the fake API: accessibility in light and dark on every
// main screen, shortcuts and the help sheet, the skip link, resizable remembered panes, the 1024×700
// layout, and the long-task budget on a heavy chat.

let api: FakeApi
let ui: UiSession

beforeAll(async () => {
  api = createFakeApi({ heavyChat: true })
  ui = await openUi(api)
  await ui.page.goto(ui.appUrl)
  await ui.page.getByTestId('project-name').waitFor()
}, 120_000)

afterAll(async () => {
  await ui?.close()
  await api?.close()
})

async function openChat(page: Page, title: string): Promise<void> {
  await page.getByTestId('chat-list').getByRole('button', { name: title, exact: true }).click()
}

/** Every main screen, each left in a state worth checking (content loaded, panels open). */
const SCREENS: Array<{ name: string; open(page: Page): Promise<void> }> = [
  {
    name: 'chat',
    async open(page) {
      await page.getByTestId('nav-settings').isVisible()
      await openChat(page, 'Revenue by month')
      await page.getByTestId('chart').first().waitFor()
      const call = page.locator('[data-tool="execute_sql"]').first()
      if ((await call.getAttribute('class'))?.includes('open') !== true) await call.getByRole('button').first().click()
      await call.locator('.result-table').waitFor()
    }
  },
  { name: 'inspector-system', open: (page) => page.locator('.tabs').getByRole('tab', { name: 'System' }).click() },
  { name: 'inspector-user', open: (page) => page.locator('.tabs').getByRole('tab', { name: 'User' }).click() },
  { name: 'inspector-request', open: async (page) => (await page.locator('.tabs').getByRole('tab', { name: 'Request' }).click(), await page.getByTestId('budget').waitFor()) },
  { name: 'inspector-memory', open: (page) => page.locator('.tabs').getByRole('tab', { name: 'Memory' }).click() },
  { name: 'inspector-diagnostics', open: (page) => page.locator('.tabs').getByRole('tab', { name: /Diagnostics/ }).click() },
  { name: 'inspector-test-mode', open: (page) => page.locator('.tabs').getByRole('tab', { name: 'Test mode' }).click() },
  { name: 'memory', open: async (page) => (await page.getByTestId('nav-memory').click(), await page.getByTestId('memory-table').waitFor()) },
  { name: 'tests', open: (page) => page.getByTestId('nav-tests').click() },
  { name: 'settings', open: async (page) => (await page.getByTestId('nav-settings').click(), await page.getByTestId('settings-panel').waitFor()) },
  {
    name: 'answer-feedback',
    async open(page) {
      await openChat(page, 'Revenue by month')
      const answer = page.locator('[data-role="assistant"]').last()
      await answer.getByTestId('feedback-up').click()
      await answer.getByTestId('test-case-review').waitFor()
    }
  },
  { name: 'feedback', open: async (page) => (await page.getByTestId('nav-feedback').click(), await page.getByTestId('feedback-list').waitFor()) },
  { name: 'check-setup', open: async (page) => (await page.getByTestId('nav-setup').click(), await page.getByTestId('check-setup-summary').waitFor()) },
  {
    name: 'new-project',
    async open(page) {
      // Left open by the first theme's pass.
      if ((await page.getByTestId('new-project-form').count()) === 0) await page.getByTestId('new-project').click()
      await page.getByTestId('new-project-form').waitFor()
    }
  },
  { name: 'help-sheet', open: async (page) => (await page.getByTestId('nav-help').click(), await page.getByTestId('help-sheet').waitFor()) }
]

async function setTheme(page: Page, theme: 'Light' | 'Dark'): Promise<void> {
  if ((await page.getByTestId('settings-panel').count()) === 0) await page.getByTestId('nav-settings').click()
  await page.getByTestId('theme-choice').getByLabel(theme).check()
  await expect.poll(() => page.evaluate(() => Reflect.get(globalThis, 'document').documentElement.dataset.theme)).toBe(theme.toLowerCase())
  // The theme's colours must reach the page, not only the attribute: a stylesheet that stops parsing part-way
  // (an unclosed rule) drops the dark theme, which comes last, while every screen still passes axe in light colours.
  const bodyBackground = (): Promise<string> =>
    page.evaluate(() => String(Reflect.get(globalThis, 'getComputedStyle')(Reflect.get(globalThis, 'document').body).backgroundColor))
  await expect.poll(bodyBackground).toBe(BODY_BACKGROUND[theme])
  await page.getByTestId('nav-settings').click()
}

/** `--bg` of each theme (theme.css), as the browser reports it. */
const BODY_BACKGROUND = { Light: 'rgb(246, 247, 249)', Dark: 'rgb(17, 20, 24)' } as const

describeWithBrowser('daily use on the fake API', () => {
  it('follows prefers-color-scheme until the user picks a theme in Settings', async () => {
    const { page } = ui
    const theme = (): Promise<string> => page.evaluate(() => String(Reflect.get(globalThis, 'document').documentElement.dataset.theme))
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(theme).toBe('dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await expect.poll(theme).toBe('light')
    await setTheme(page, 'Dark')
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await theme()).toBe('dark')
    await page.reload()
    await page.getByTestId('project-name').waitFor()
    expect(await theme()).toBe('dark')
    await setTheme(page, 'Light')
  })

  for (const theme of ['Light', 'Dark'] as const) {
    it(`has no serious or critical axe violation on any main screen (${theme.toLowerCase()})`, async () => {
      const { page } = ui
      await setTheme(page, theme)
      const found: string[] = []
      for (const screen of SCREENS) {
        await screen.open(page)
        await page.waitForTimeout(150)
        const problems = await seriousAxeViolations(page)
        for (const problem of problems) found.push(`${screen.name}: [${problem.impact}] ${problem.id} — ${problem.help} — ${problem.targets.join(' | ')} — ${problem.summary}`)
        await ui.screenshot(`daily-${theme.toLowerCase()}-${screen.name}`)
        if (screen.name === 'help-sheet') await page.keyboard.press('Escape')
      }
      console.log(`[e2e] axe (${theme.toLowerCase()}): ${SCREENS.length} screens, ${found.length} serious/critical violations${found.length ? `\n${found.join('\n')}` : ''}`)
      expect(found).toEqual([])
    }, 120_000)
  }

  it('offers a skip link to the message box as the first Tab stop', async () => {
    const { page } = ui
    await setTheme(page, 'Light')
    await openChat(page, 'Revenue by month')
    // First in the page's Tab order (before the top bar): Shift+Tab from the first top-bar control reaches it.
    const firstTabbable = await page.evaluate(() => {
      const document = Reflect.get(globalThis, 'document')
      const candidates = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')].filter((element) => element.tabIndex >= 0 && !element.disabled)
      return candidates[0]?.textContent ?? ''
    })
    expect(firstTabbable).toBe('Skip to the message box')
    await page.locator('.topbar select').first().focus()
    await page.keyboard.press('Shift+Tab')
    expect(await page.evaluate(() => Reflect.get(globalThis, 'document').activeElement?.textContent)).toBe('Skip to the message box')
    await ui.screenshot('daily-skip-link')
    await page.getByRole('link', { name: 'Skip to the message box' }).focus()
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => Reflect.get(globalThis, 'document').activeElement?.getAttribute('data-testid'))).toBe('composer')
  })

  it('works from the keyboard: new chat (once), focus the message box, toggle the inspector, help sheet', async () => {
    const { page } = ui
    const countNew = async (): Promise<number> => (await page.getByTestId('chat-list').locator('.chat-title').allTextContents()).filter((title) => title === 'New chat').length
    const before = await countNew()
    await page.locator('body').click({ position: { x: 5, y: 300 } })
    await page.keyboard.press('Control+Shift+O')
    await expect.poll(countNew).toBe(before + 1)
    await page.keyboard.press('Control+Shift+O')
    await page.getByTestId('new-chat').click()
    await page.waitForTimeout(300)
    expect(await countNew()).toBe(before + 1)
    await page.getByTestId('nav-memory').click()
    await page.keyboard.press('Shift+Escape')
    expect(await page.evaluate(() => Reflect.get(globalThis, 'document').activeElement?.getAttribute('data-testid'))).toBe('composer')
    await page.keyboard.press('Control+i')
    await expect.poll(() => page.getByTestId('inspector').count()).toBe(0)
    await page.getByTestId('inspector-tab').waitFor()
    await page.keyboard.press('Control+i')
    await page.getByTestId('inspector').waitFor()
    await page.locator('body').click({ position: { x: 5, y: 300 } })
    await page.keyboard.press('?')
    await page.getByTestId('help-sheet').waitFor()
    const sheet = await page.getByTestId('help-sheet').textContent()
    for (const words of ['New chat', 'Focus the message box', 'Show or hide the prompt inspector', 'Stop the answer']) expect(sheet).toContain(words)
    await ui.screenshot('daily-help-sheet')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('help-sheet').count()).toBe(0)
  })

  it('resizes the panes by drag and by keyboard, and remembers them after a reload', async () => {
    const { page } = ui
    const sidebarWidth = (): Promise<number> => page.locator('.sidebar').evaluate((element) => element.getBoundingClientRect().width)
    const start = await sidebarWidth()
    const handle = page.getByRole('separator', { name: 'Sidebar width' })
    const box = await handle.boundingBox()
    if (!box) throw new Error('no sidebar resizer')
    await page.mouse.move(box.x + box.width / 2, box.y + 200)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + 200, { steps: 5 })
    await page.mouse.up()
    await expect.poll(sidebarWidth).toBeCloseTo(start + 60, -1)
    await handle.focus()
    await page.keyboard.press('ArrowRight')
    await expect.poll(sidebarWidth).toBeCloseTo(start + 76, -1)
    const inspector = page.getByRole('separator', { name: 'Inspector width' })
    const inspectorBefore = await page.getByTestId('inspector').evaluate((element) => element.getBoundingClientRect().width)
    await inspector.focus()
    await page.keyboard.press('Shift+ArrowLeft')
    await expect.poll(() => page.getByTestId('inspector').evaluate((element) => element.getBoundingClientRect().width)).toBeCloseTo(inspectorBefore + 64, -1)
    await page.reload()
    await page.getByTestId('project-name').waitFor()
    expect(await sidebarWidth()).toBeCloseTo(start + 76, -1)
    expect(await page.getByTestId('inspector').evaluate((element) => element.getBoundingClientRect().width)).toBeCloseTo(inspectorBefore + 64, -1)
    await ui.screenshot('daily-resized-panes')
    await page.evaluate(() => Reflect.get(globalThis, 'localStorage').removeItem('glassbox-panes'))
    await page.reload()
    await page.getByTestId('project-name').waitFor()
  })

  it('never blocks the main thread for more than 100 ms in a chat with 20 charts and 20 tables of 500 rows', async () => {
    const { page } = ui
    await page.evaluate(() => {
      const tasks: number[] = []
      Reflect.set(globalThis, '__longTasks', tasks)
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(entry.duration)
      })
      // Node's types do not know the browser's 'longtask' entry type.
      Reflect.apply(observer.observe, observer, [{ type: 'longtask' }])
      // Which charts got drawn (an svg inside the figure), however briefly they were on screen.
      const drawn = new Set<string>()
      Reflect.set(globalThis, '__drawnCharts', drawn)
      const document = Reflect.get(globalThis, 'document')
      const watcher: { observe(target: unknown, options: object): void } = Reflect.construct(Reflect.get(globalThis, 'MutationObserver'), [
        () => {
          for (const figure of document.querySelectorAll('[data-testid="chart"]')) if (figure.querySelector('svg')) drawn.add(figure.querySelector('figcaption')?.textContent ?? '')
        }
      ])
      watcher.observe(document.body, { childList: true, subtree: true })
    })
    const stopTrace = await startTaskTrace(page)
    const started = Date.now()
    await openChat(page, 'Heavy analysis (20 charts, 20 tables)')
    await page.getByTestId('chart').first().waitFor({ timeout: 15_000 })
    // Scroll through the whole chat, drawing every chart, and open every result table on the way.
    const list = page.getByTestId('message-list')
    await list.evaluate((element) => (element.scrollTop = 0))
    let opened = 0
    for (let step = 0; step < 80; step++) {
      const closed = page.locator('[data-tool="execute_sql"]:not(.open) .tool-call-head')
      const visible = await closed.count()
      for (let index = 0; index < visible; index++) {
        const head = closed.first()
        if (!(await head.isVisible())) break
        await head.click()
        opened++
        const more = page.locator('[data-tool="execute_sql"].open .table-foot').getByRole('button', { name: /Show .* more/ }).last()
        if (await more.isVisible()) await more.click()
      }
      const done = await list.evaluate((element) => {
        element.scrollBy(0, element.clientHeight * 0.8)
        return element.scrollTop + element.clientHeight >= element.scrollHeight - 2
      })
      await page.waitForTimeout(120)
      if (done && step > 3) break
    }
    await page.waitForTimeout(500)
    const charts = await page.getByTestId('chart').count()
    await ui.screenshot('daily-heavy-chat')
    const tasks: number[] = await page.evaluate(() => Reflect.get(globalThis, '__longTasks'))
    const worst = Math.max(0, ...tasks)
    const drawn: string[] = await page.evaluate(() => [...Reflect.get(globalThis, '__drawnCharts')])
    const traced = await stopTrace()
    const worstCpu = Math.max(0, ...traced.map((task) => task.cpuMs))
    console.log(
      `[e2e] heavy chat: ${tasks.length} long tasks (> 50 ms), worst ${worst.toFixed(0)} ms (main thread busy for ${worstCpu.toFixed(0)} ms of CPU in its longest task), ${drawn.length} charts drawn, ${opened} tables opened, ${charts} charts on screen at the end, ${Date.now() - started} ms in all, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`
    )
    expect(new Set(drawn).size).toBe(20)
    expect(opened).toBeGreaterThanOrEqual(20)
    // What the page itself costs: no task runs more than 100 ms of CPU. The wall time the PerformanceObserver
    // sees also counts time spent waiting for a core, so it is only printed.
    expect(worstCpu).toBeLessThanOrEqual(100)
  }, 120_000)
})

describeWithBrowser('1024×700 window, German locale', () => {
  let small: UiSession
  beforeAll(async () => {
    small = await openUi(api, { viewport: { width: 1024, height: 700 }, locale: 'de-DE' })
    await small.page.goto(small.appUrl)
    await small.page.getByTestId('project-name').waitFor()
  }, 60_000)
  afterAll(async () => small?.close())

  it('keeps the chat column at least 480 px wide, the inspector as a tab, and nothing over the messages', async () => {
    const { page } = small
    await openChat(page, 'Revenue by month')
    await page.getByTestId('chart').first().waitFor()
    const chat = await page.locator('.chat-pane').boundingBox()
    expect(chat?.width).toBeGreaterThanOrEqual(480)
    await page.getByTestId('inspector-tab').waitFor()
    expect(await page.getByTestId('inspector').count()).toBe(0)
    const tab = await page.getByTestId('inspector-tab').boundingBox()
    if (!chat || !tab) throw new Error('no layout boxes')
    expect(tab.x).toBeGreaterThanOrEqual(chat.x + chat.width - 1)
    // SQL the model quotes in its answer wraps too.
    const answerSql = page.locator('.assistant-text pre:has(code.language-sql)').first()
    expect(await answerSql.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true)
    await small.screenshot('daily-1024x700')
    // A toast takes its own place above the chat: the chat moves down, nothing is covered.
    const composerBefore = await page.getByTestId('composer').boundingBox()
    await page.getByTestId('nav-memory').click()
    await page.getByTestId('nav-memory').click()
    await page.getByLabel('Search chats').fill('zzz-no-such-chat')
    await page.getByLabel('Search chats').fill('')
    await page.evaluate(() => Reflect.get(globalThis, 'document').querySelector('[data-testid="sync"]')?.click())
    await page.locator('.toast').first().waitFor({ timeout: 5000 })
    const toast = await page.locator('.toast').first().boundingBox()
    const composer = await page.getByTestId('composer').boundingBox()
    const list = await page.getByTestId('message-list').boundingBox()
    if (!toast || !composer || !list || !composerBefore) throw new Error('no boxes')
    const apart = (a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean => a.y + a.height <= b.y + 1 || b.y + b.height <= a.y + 1 || a.x + a.width <= b.x + 1 || b.x + b.width <= a.x + 1
    expect(apart(toast, composer)).toBe(true)
    expect(apart(toast, list)).toBe(true)
    const header = await page.locator('.chat-header').boundingBox()
    if (header) expect(apart(toast, header)).toBe(true)
    await small.screenshot('daily-1024x700-toast')
    // Opened from its tab, the inspector lies over the chat until hidden again.
    await page.getByTestId('inspector-tab').click()
    await page.getByTestId('inspector').waitFor()
    await small.screenshot('daily-1024x700-inspector-open')
    await page.getByRole('button', { name: /Hide/ }).click()
    await expect.poll(() => page.getByTestId('inspector').count()).toBe(0)
  })

  it('wraps long SQL, never breaks numbers or words inside table cells, and keeps "↓ Latest" off the messages', async () => {
    const { page } = small
    await openChat(page, 'Heavy analysis (20 charts, 20 tables)')
    const call = page.locator('[data-message-id="heavy-a20"] [data-tool="execute_sql"]')
    await call.locator('.tool-call-head').click()
    const pre = call.locator('.sql-block pre')
    await pre.waitFor()
    expect(await pre.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true)
    const cells = call.locator('.result-table td')
    // Numbers the German way, in the table and on the chart's axis alike.
    expect(await call.locator('.result-table tbody tr').nth(5).locator('td').nth(1).textContent()).toBe('4.700')
    expect(await page.locator('.big-chart-text').allTextContents()).toContain('8.000')
    const wrapped = await cells.evaluateAll((nodes) => nodes.filter((node) => node.getClientRects().length > 0 && node.getBoundingClientRect().height > 40).length)
    expect(wrapped).toBe(0)
    const list = page.getByTestId('message-list')
    await list.evaluate((element) => (element.scrollTop = 0))
    await page.locator('.jump-to-latest').waitFor()
    const button = await page.locator('.jump-to-latest').boundingBox()
    const listBox = await list.boundingBox()
    if (!button || !listBox) throw new Error('no boxes')
    expect(button.y).toBeGreaterThanOrEqual(listBox.y + listBox.height - 1)
    await small.screenshot('daily-1024x700-latest-button')
  })
})
