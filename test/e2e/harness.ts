import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import type { GlassboxApi } from '../../src/shared/api'
import { startWebServer, type WebServer } from '../../src/main/web/server'
import { rendererOutdated } from '../../src/main/web/renderer-freshness'
import { REPO_ROOT } from '../support/fixtures'
import { chromiumOrSkip, missingBrowserError } from './browser'

// Headless Debian Chromium driving the real renderer through web mode, on loopback only.

export const RENDERER_DIR = resolve(REPO_ROOT, 'out/renderer')
export const SCREENSHOT_DIR = resolve(REPO_ROOT, 'test-results/screenshots')

/** The Chromium the suites drive (null: none on this machine; the suites skip, the set-up printed a hint). */
export const CHROMIUM = chromiumOrSkip()

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']

/** `npm test` builds first; a lone run of the e2e builds the renderer when it is missing or older than its sources. */
export function ensureRendererBuilt(): void {
  if (!rendererOutdated(REPO_ROOT, RENDERER_DIR)) return
  const build = spawnSync('npx', ['electron-vite', 'build'], { cwd: REPO_ROOT, stdio: 'inherit', timeout: 170_000 })
  if (build.status !== 0 || !existsSync(join(RENDERER_DIR, 'index.html'))) throw new Error('Could not build the renderer: run `npx electron-vite build`.')
}

export interface BrowserSession {
  context: BrowserContext
  page: Page
  /** Browser console errors seen so far. */
  consoleErrors: string[]
  close(): Promise<void>
}

/** A fresh headless Chromium (its own profile, so nothing is cached) with one page. */
export async function openBrowser(options: { viewport?: { width: number; height: number }; locale?: string } = {}): Promise<BrowserSession> {
  if (!CHROMIUM) throw missingBrowserError()
  const profile = mkdtempSync(join(tmpdir(), 'glassbox-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    timeout: 30_000,
    viewport: options.viewport ?? { width: 1440, height: 900 },
    deviceScaleFactor: 1,
    ...(options.locale ? { locale: options.locale } : {})
  })
  // GLASSBOX_E2E_LATENCY_MS=300 holds each API call for a random 0–300 ms, so replies arrive late and out of order
  // as on a loaded machine: a way to shake out races between the UI and the tests (CI does not set it).
  const latency = Number(process.env.GLASSBOX_E2E_LATENCY_MS ?? 0)
  if (latency > 0) {
    await context.route(/\/api\/(?!events)/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * latency))
      await route.continue().catch(() => undefined)
    })
  }
  const page = context.pages()[0] ?? (await context.newPage())
  page.setDefaultTimeout(10_000)
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => consoleErrors.push(error.message))
  return {
    context,
    page,
    consoleErrors,
    async close() {
      await context.close().catch(() => undefined)
      rmSync(profile, { recursive: true, force: true })
    }
  }
}

export interface UiSession extends BrowserSession {
  server: WebServer
  /** The page URL with its token. */
  appUrl: string
  screenshot(name: string): Promise<string>
}

export async function openUi(api: GlassboxApi, options: { viewport?: { width: number; height: number }; locale?: string } = {}): Promise<UiSession> {
  ensureRendererBuilt()
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const server = await startWebServer({ api, host: '127.0.0.1', rendererDir: RENDERER_DIR })
  const browser = await openBrowser(options)
  const { page } = browser
  return {
    ...browser,
    server,
    appUrl: `${server.url}?token=${server.token}`,
    async screenshot(name: string) {
      const path = join(SCREENSHOT_DIR, `${name}.png`)
      await page.screenshot({ path })
      return path
    },
    async close() {
      await browser.close()
      await server.close()
    }
  }
}

/**
 * Waits until the chat is at rest: no message is being handed to the server ("Sending…", while the newest answer
 * is still the previous one), no Stop button (Enter is ignored until it goes), and the newest answer, if any, is
 * finished and read back from the store (its stored id replaces the live one: forking needs it, and a test that
 * watches for the next answer by its id must not mistake that change for a new answer).
 */
export async function waitForChatAtRest(page: Page, timeout = 15_000): Promise<string | null> {
  return waitForNewestAnswer(page, () => true, timeout)
}

/**
 * Waits until the newest answer is done and the chat is at rest. (`[data-status="done"]` alone would match an
 * earlier answer at once and let the next step race the run that is still streaming.)
 */
export async function waitForLastAnswerDone(page: Page, timeout = 15_000): Promise<void> {
  await waitForNewestAnswer(page, (status) => status === 'done', timeout)
}

/** Polls the newest answer until the chat is at rest and its status passes; returns that status. */
async function waitForNewestAnswer(page: Page, accept: (status: string | null) => boolean, timeout: number): Promise<string | null> {
  // Polled through a locator: the page's CSP forbids the string evaluation waitForFunction would need.
  const newest = page.locator('[data-role="assistant"]').last()
  const deadline = Date.now() + timeout
  for (;;) {
    const idle = (await page.getByTestId('sending').count()) === 0 && (await page.getByTestId('stop').count()) === 0
    const present = (await newest.count()) > 0
    const status = present ? await newest.getAttribute('data-status', { timeout: Math.max(1, deadline - Date.now()) }) : null
    const stored = !present || !(await newest.getAttribute('data-message-id'))?.startsWith('live-')
    if (idle && stored && status !== 'streaming' && accept(status)) return status
    if (Date.now() > deadline) throw new Error(`the chat was not at rest with its newest answer as expected within ${timeout} ms (newest: ${status})`)
    await page.waitForTimeout(50)
  }
}

/**
 * Clicks "New chat" and waits until the new, empty chat is the one shown: making it is a round trip, and what is
 * typed before it arrives goes to the chat that was open.
 */
export async function startNewChat(page: Page): Promise<void> {
  await page.getByTestId('new-chat').click()
  await page.getByTestId('chat-list').locator('[aria-current="page"] .chat-title', { hasText: /^New chat$/ }).waitFor()
  await page.getByRole('heading', { name: 'What would you like to know?' }).waitFor()
}
