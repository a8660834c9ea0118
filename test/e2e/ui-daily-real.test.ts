import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Download, Locator, Page } from 'playwright-core'
import type { Glassbox } from '../../src/main/app/create-glassbox'
import { DuckDBInstance } from '@duckdb/node-api'
import { makeTempDir } from '../support/fixtures'
import { isAgentRequest, latestTurn, type RecordedRequest, type Turn } from '../support/scripted-openai-server'
import { describeWithBrowser } from './describe-with-browser'
import { waitForLastAnswerDone, type UiSession } from './harness'
import { openRealSession, type RealSession } from './real-session'

// Daily-use features (#16) end to end on the real services (store in a temp folder, the nao-layout fixture with
// DuckDB, a scripted model server on loopback) in headless Chromium: answer versions, per-answer figures,
// exports that parse back to what was shown, rename, keyboard delete, search inside messages.

const MONTHLY_SQL = "SELECT strftime(order_date, '%Y-%m') AS month, SUM(amount) AS revenue, COUNT(*) AS orders FROM orders GROUP BY 1 ORDER BY 1"
let answers = 0

function script(request: RecordedRequest): Turn {
  if (!isAgentRequest(request)) return { text: '{"user_instructions": null, "user_profile": null}' }
  const turn = latestTurn(request)
  const question = turn.question.toLowerCase()
  const results = turn.toolResults
  if (!question.includes('revenue')) return { text: 'Hello! Ask me about the jaffle shop data.', usage: { prompt_tokens: 812, completion_tokens: 9 } }
  if (results.length === 0) return { toolCalls: [{ name: 'execute_sql', args: { sql_query: MONTHLY_SQL } }], usage: { prompt_tokens: 3100, completion_tokens: 40 } }
  const queryId = /query_id: (\S+)/.exec(results[0])?.[1] ?? 'q1'
  if (results.length === 1) {
    return { toolCalls: [{ name: 'display_chart', args: { query_id: queryId, chart_type: 'bar', x_axis_key: 'month', x_axis_type: 'category', series: [{ data_key: 'revenue', label: 'Revenue' }], title: 'Revenue by month' } }] }
  }
  answers++
  return {
    text: `Take ${answers}: April is the highest month with <citation-number id="${queryId}" column="revenue">1,672</citation-number> of revenue.`,
    chunkSize: 8,
    chunkDelayMs: 10,
    firstTokenDelayMs: 120,
    usage: { prompt_tokens: 5230, completion_tokens: 214 }
  }
}

let session: RealSession
let glassbox: Glassbox
let ui: UiSession

beforeAll(async () => {
  session = await openRealSession({ script })
  ;({ glassbox, ui } = session)
  await ui.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(ui.appUrl).origin })
  await ui.page.goto(ui.appUrl)
  await ui.page.getByTestId('project-name').waitFor()
}, 120_000)

afterAll(async () => {
  await session?.close()
})

async function ask(page: Page, question: string): Promise<void> {
  await page.getByTestId('composer').fill(question)
  await page.keyboard.press('Enter')
  await page.locator('[data-role="assistant"]').last().waitFor()
  await waitForLastAnswerDone(page, 20_000)
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download]: [Download, void] = await Promise.all([page.waitForEvent('download'), click()])
  const path = await download.path()
  return { name: download.suggestedFilename(), bytes: readFileSync(path) }
}

async function readCsvWithDuckDb(bytes: Buffer): Promise<string[][]> {
  const folder = makeTempDir('glassbox-csv-')
  try {
    const file = `${folder.dir}/export.csv`
    writeFileSync(file, bytes)
    const instance = await DuckDBInstance.create(':memory:')
    const connection = await instance.connect()
    const reader = await connection.runAndReadAll(`SELECT * FROM read_csv('${file}', header = true, all_varchar = true)`)
    const rows = reader.getRowsJS().map((row) => row.map((cell) => (cell === null ? '' : String(cell))))
    const columns = reader.columnNames()
    connection.closeSync()
    instance.closeSync()
    return [columns, ...rows]
  } finally {
    folder.cleanup()
  }
}

async function tableCells(call: Locator): Promise<string[][]> {
  const rows: string[][] = []
  for (const row of await call.locator('.result-table tbody tr').all()) rows.push(await row.locator('td').allTextContents())
  return rows
}

const activeChatId = (page: Page): Promise<string | null> => page.locator('.chat-list li.active').getAttribute('data-chat-id')

describeWithBrowser('daily use on the real services', () => {
  it('shows the model, time to first token, total time and tokens under each answer', async () => {
    const { page } = ui
    await page.getByTestId('start-chat').click()
    await ask(page, 'How did revenue evolve month by month?')
    await page.getByTestId('chart').waitFor({ timeout: 20_000 })
    const figures = page.getByTestId('message-figures').last()
    await expect.poll(() => figures.textContent()).toContain('scripted-model')
    // The total time and the server's counts come with the answer as stored.
    await expect.poll(() => figures.textContent()).toMatch(/\d[\d.,]* (ms|s) total/)
    const text = (await figures.textContent()) ?? ''
    expect(text).toMatch(/first token \d[\d.,]* (ms|s)/)
    expect(text).toMatch(/\d[\d.,]* (ms|s) total/)
    // Three rounds: 3,100 + 100 + 5,230 tokens in, 40 + 10 + 214 out, as the server reported them.
    expect(text).toContain('8,430 → 264 tokens')
    await ui.screenshot('daily-real-01-answer-figures')
  })

  it('keeps the earlier answer as version 1/2 after regenerate, and the inspector shows the prompt of the version shown', async () => {
    const { page } = ui
    await page.locator('[data-role="assistant"]').last().hover()
    await page.getByRole('button', { name: 'Regenerate' }).click()
    // The new answer may stream and end within one frame on a loaded machine: wait for the chat to settle.
    await waitForLastAnswerDone(page, 20_000)
    const switcher = page.getByTestId('version-switcher')
    await expect.poll(() => switcher.textContent()).toContain('2/2')
    expect(await page.getByTestId('assistant-text').last().textContent()).toContain('Take 2')
    await switcher.getByRole('button', { name: 'Previous version' }).click()
    await expect.poll(() => switcher.textContent()).toContain('1/2')
    expect(await page.getByTestId('assistant-text').last().textContent()).toContain('Take 1')
    await ui.screenshot('daily-real-02-version-1-of-2')

    // Edit the question: a third version, with another question.
    await switcher.getByRole('button', { name: 'Next version' }).click()
    const question = page.locator('[data-role="user"]').last()
    await question.hover()
    await question.getByRole('button', { name: 'Edit' }).click()
    await page.locator('.edit-area').fill('How did revenue evolve in 2018, month by month?')
    await page.getByRole('button', { name: 'Save & resend' }).click()
    await waitForLastAnswerDone(page, 20_000)
    await expect.poll(() => switcher.textContent()).toContain('3/3')

    const chat = await glassbox.getChat({ chatId: (await activeChatId(page)) ?? '' })
    expect(chat.versions?.map((version) => version.messages[0].text)).toEqual(['How did revenue evolve month by month?', 'How did revenue evolve month by month?'])
    for (const [index, wanted] of [
      [1, 'month by month?'],
      [3, 'in 2018, month by month?']
    ] as const) {
      while (!((await switcher.textContent()) ?? '').includes(`${index}/3`)) await switcher.getByRole('button', { name: index === 1 ? 'Previous version' : 'Next version' }).click()
      const runId = index === 3 ? chat.messages[1].runId : chat.versions?.[0].messages[1].runId
      await page.locator('[data-role="assistant"]').last().hover()
      await page.getByRole('button', { name: 'Inspect prompt' }).last().click()
      await expect.poll(() => page.locator('.inspector-source .technical-id').getAttribute('title')).toBe(`run ${runId}`)
      await page.locator('.tabs').getByRole('tab', { name: 'User' }).click()
      await expect.poll(() => page.getByTestId('user-text').textContent()).toContain(wanted)
      if (index === 1) expect(await page.getByTestId('user-text').textContent()).not.toContain('2018')
      await ui.screenshot(`daily-real-03-inspector-version-${index}`)
    }
    await page.getByRole('button', { name: 'Back to live preview' }).click()
  })

  it('exports the chat to Markdown that renders with the SQL, the rows shown, the chart image and the cited source', async () => {
    const { page } = ui
    const call = page.locator('[data-tool="execute_sql"]').first()
    await call.locator('.tool-call-head').click()
    await call.locator('.result-table').waitFor()
    const shownRows = await tableCells(call)
    expect(shownRows.length).toBeGreaterThan(2)
    const { name, bytes } = await downloaded(page, () => page.getByTestId('export-chat').click())
    expect(name).toMatch(/\.md$/)
    const markdown = bytes.toString('utf8')
    expect(markdown).toContain('## Question 1\n\nHow did revenue evolve in 2018, month by month?')
    expect(markdown).toContain('```sql\n' + MONTHLY_SQL + '\n```')
    expect(markdown).toMatch(/!\[Revenue by month\]\(data:image\/png;base64,[A-Za-z0-9+/=]{1000,}\)/)
    expect(markdown).toMatch(/April is the highest month with 1,672\[\^1\] of revenue/)
    expect(markdown).toMatch(/\[\^1\]: 1,672 comes from query 1 \(`[0-9a-f]{6}_q1`\), column `revenue`/)
    // The GFM table under the SQL holds exactly the rows shown (rendering is checked in export.test.ts).
    const tableLines = markdown.slice(markdown.indexOf('```sql')).split('\n').filter((line) => line.startsWith('| '))
    const tableRows = tableLines.slice(2).map((line) => line.slice(2, -2).split(' | '))
    expect(tableRows).toEqual(shownRows)
    const png = Buffer.from(/data:image\/png;base64,([A-Za-z0-9+/=]+)/.exec(markdown)?.[1] ?? '', 'base64')
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
    await ui.screenshot('daily-real-04-export-button')
  })

  it('saves a result table as CSV that parses back to the rows shown, a chart as PNG, and copies the SQL', async () => {
    const { page } = ui
    const call = page.locator('[data-tool="execute_sql"]').first()
    const shownRows = await tableCells(call)
    const header = await call.locator('.result-table thead th').allTextContents()
    const csv = await downloaded(page, () => call.getByRole('button', { name: 'Save CSV' }).click())
    expect(csv.name).toMatch(/\.csv$/)
    // Read back by another CSV reader (DuckDB's, as a spreadsheet would), every field as text.
    const parsed = await readCsvWithDuckDb(csv.bytes)
    expect(parsed[0]).toEqual(header)
    const asShown = parsed.slice(1).map((row) => row.map((cell) => (cell !== '' && Number.isFinite(Number(cell)) ? Number(cell).toLocaleString('en-US', { maximumFractionDigits: 4 }) : cell)))
    expect(asShown).toEqual(shownRows)

    const chart = await downloaded(page, () => page.getByTestId('chart').last().getByRole('button', { name: 'Save PNG' }).click())
    expect(chart.name).toBe('Revenue-by-month.png')
    expect(chart.bytes.subarray(1, 4).toString('latin1')).toBe('PNG')
    expect(chart.bytes.readUInt32BE(16)).toBe(1440)

    await call.getByRole('button', { name: 'Copy SQL' }).click()
    await expect.poll(() => page.evaluate(() => Reflect.get(globalThis, 'navigator').clipboard.readText())).toBe(MONTHLY_SQL)
    await ui.screenshot('daily-real-05-sql-card-with-exports')
  })

  it('renames a chat from the keyboard and from the header, and finds chats by words inside messages', async () => {
    const { page } = ui
    const chatId = (await activeChatId(page)) ?? ''
    const link = page.locator(`.chat-list li[data-chat-id="${chatId}"] .chat-link`)
    await link.focus()
    await page.keyboard.press('F2')
    await page.getByTestId('rename-field').fill('Monthly revenue 2018')
    await ui.screenshot('daily-real-06-rename')
    await page.keyboard.press('Enter')
    await expect.poll(() => link.textContent()).toBe('Monthly revenue 2018')
    expect((await glassbox.listChats({})).find((chat) => chat.id === chatId)?.title).toBe('Monthly revenue 2018')
    await page.locator('.chat-header').getByRole('button', { name: /Rename chat/ }).click()
    await page.locator('.chat-header').getByTestId('rename-field').fill('Revenue, month by month')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('.chat-header-title').textContent()).toBe('Revenue, month by month')

    await page.getByLabel('Search chats').fill('highest month')
    await expect.poll(() => page.getByTestId('chat-list').locator('.chat-title').allTextContents()).toEqual(['Revenue, month by month'])
    await ui.screenshot('daily-real-07-search-in-messages')
    await page.getByLabel('Search chats').fill('no chat says this')
    await expect.poll(() => page.getByTestId('chat-list').locator('.chat-title').count()).toBe(0)
    await page.getByLabel('Search chats').fill('')
  })

  it('does not pile up empty chats, scrolls the active chat into view, and deletes a chat from the keyboard', async () => {
    const { page } = ui
    const mainChat = (await activeChatId(page)) ?? ''
    await page.getByTestId('new-chat').click()
    await page.getByTestId('new-chat').click()
    await page.keyboard.press('Control+Shift+O')
    await page.getByTestId('chat-list').locator('[aria-current="page"] .chat-title', { hasText: /^New chat$/ }).waitFor()
    await page.waitForTimeout(300)
    expect((await glassbox.listChats({})).filter((chat) => chat.title === 'New chat')).toHaveLength(1)

    for (let index = 1; index <= 40; index++) await glassbox.createChat({ title: `Filler ${index}` })
    await page.getByLabel('Search chats').fill('revenue, month')
    await page.getByTestId('chat-list').getByRole('button', { name: 'Revenue, month by month', exact: true }).click()
    await page.getByLabel('Search chats').fill('')
    await expect.poll(() => page.getByTestId('chat-list').locator('li').count()).toBeGreaterThan(40)
    const visible = async (): Promise<boolean> => {
      const list = await page.getByTestId('chat-list').boundingBox()
      const item = await page.locator(`.chat-list li[data-chat-id="${mainChat}"]`).boundingBox()
      return Boolean(list && item && item.y >= list.y - 1 && item.y + item.height <= list.y + list.height + 1)
    }
    await expect.poll(visible).toBe(true)
    await ui.screenshot('daily-real-08-active-chat-in-view')

    const filler = page.getByTestId('chat-list').getByRole('button', { name: 'Filler 40', exact: true })
    await filler.focus()
    page.once('dialog', (dialog) => void dialog.accept())
    await page.keyboard.press('Delete')
    await expect.poll(() => page.getByTestId('chat-list').getByRole('button', { name: 'Filler 40', exact: true }).count()).toBe(0)
    expect((await glassbox.listChats({})).some((chat) => chat.title === 'Filler 40')).toBe(false)
    // The delete button itself is in the Tab order and named.
    await page.getByTestId('chat-list').getByRole('button', { name: 'Filler 39', exact: true }).focus()
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => Reflect.get(globalThis, 'document').activeElement?.getAttribute('aria-label'))).toBe('Delete Filler 39')
    page.once('dialog', (dialog) => void dialog.accept())
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('chat-list').getByRole('button', { name: 'Filler 39', exact: true }).count()).toBe(0)
    expect(ui.consoleErrors).toEqual([])
  })
})
