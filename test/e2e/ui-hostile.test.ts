import { afterAll, beforeAll, expect, it } from 'vitest'
import { createFakeApi, type FakeApi } from './fake-api'
import { describeWithBrowser } from './describe-with-browser'
import { openUi, type UiSession } from './harness'

// Answers that break rendering must not blank the window: a malformed citation link renders as a number, a
// message that cannot be drawn says so in its place with its raw text to copy, and the rest keeps working.

let api: FakeApi
let ui: UiSession

beforeAll(async () => {
  api = createFakeApi({ hostileChat: true })
  ui = await openUi(api)
}, 120_000)

afterAll(async () => {
  await ui?.close()
  await api?.close()
})

describeWithBrowser('web UI with hostile answers', () => {
  it('shows the chat: the malformed citation as its number, the broken answer as a notice with its raw text', async () => {
    const { page } = ui
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(ui.appUrl)
    await page.getByRole('button', { name: 'Hostile answers', exact: true }).click()
    const answer = page.locator('[data-message-id="hostile-a2"]')
    await answer.locator('.citation').first().waitFor()
    expect(await answer.getByTestId('assistant-text').textContent()).toBe('The total is 42 orders, and 7 more.')
    expect(await answer.locator('.citation').first().getAttribute('title')).toBe('From query %E0%A4%25A, column ')

    const unshown = page.getByTestId('unshown-message')
    await unshown.waitFor()
    expect(await unshown.textContent()).toMatch(/^This answer could not be shown \(.+\)\. Copy raw text$/)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    await unshown.getByRole('button', { name: 'Copy raw text' }).click()
    await unshown.getByRole('button', { name: 'Copied' }).waitFor()
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('RAW-TEXT-OF-THE-CORRUPT-ANSWER')
    await ui.screenshot('hostile-answers')

    // The rest of the app still works: the question above is there, another chat opens.
    expect(await page.locator('[data-message-id="hostile-u1"]').textContent()).toContain('Read the notes file')
    await page.getByRole('button', { name: 'Top customers', exact: true }).click()
    await page.getByText('The top 5 customers account for').waitFor()
    expect(errors).toEqual([])
  })
})
