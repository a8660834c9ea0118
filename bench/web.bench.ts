import { createGlassbox, type Glassbox } from '../src/main/app/create-glassbox'
import { startWebServer, type WebServer } from '../src/main/web/server'
import { BROWSER_HINT } from '../test/e2e/browser'
import { CHROMIUM, ensureRendererBuilt, openBrowser, RENDERER_DIR, type BrowserSession } from '../test/e2e/harness'
import { makeTempDir, NAO_LAYOUT } from '../test/support/fixtures'
import { percentile, type Figure } from './harness'

// web/cold-start-to-paint: from creating the services (fresh store, the nao-layout fixture, watching as web mode
// does) and starting the web server to the React app showing the loaded project in a fresh Chromium page,
// the way a user opens the printed URL. "Showing" is Playwright's visible (laid out with a size); the paint
// follows within a frame. The browser is launched before the clock starts: a user's browser is already
// running. Its profile is new each time, so nothing is cached.
// web/first-paint: the browser's own first-contentful-paint from navigation start; this is likely the static
// placeholder in index.html, which shows before the app has loaded anything.

const RUNS = 5
const PAINT_TIMEOUT_MS = 15_000
/** The sidebar's project name and the chat pane (a fresh store has no chat yet, so no composer) exist only once the app has loaded the project. */
const LOADED_PROJECT = '[data-testid="project-name"]'
const CHAT_PANE = '[data-testid="composer"], [data-testid="start-chat"]'

export async function* figures(): AsyncGenerator<Figure> {
  if (!CHROMIUM) {
    process.stderr.write(`web/cold-start-to-paint not measured. ${BROWSER_HINT}\n`)
    return
  }
  ensureRendererBuilt()
  const coldStarts: number[] = []
  const firstPaints: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const { coldStartMs, firstPaintMs } = await coldStart()
    coldStarts.push(coldStartMs)
    if (firstPaintMs !== null) firstPaints.push(firstPaintMs)
  }
  yield summarise('web/cold-start-to-paint', coldStarts)
  if (firstPaints.length > 0) yield summarise('web/first-paint', firstPaints)
}

async function coldStart(): Promise<{ coldStartMs: number; firstPaintMs: number | null }> {
  const data = makeTempDir('glassbox-bench-web-')
  let browser: BrowserSession | undefined
  let glassbox: Glassbox | undefined
  let server: WebServer | undefined
  try {
    browser = await openBrowser()
    const { page } = browser
    const start = performance.now()
    glassbox = await createGlassbox({ dataDir: data.dir, projectPath: NAO_LAYOUT, extractMemories: false })
    server = await startWebServer({ api: glassbox, host: '127.0.0.1', rendererDir: RENDERER_DIR })
    await page.goto(`${server.url}?token=${server.token}`, { timeout: PAINT_TIMEOUT_MS })
    await page.locator(LOADED_PROJECT).waitFor({ timeout: PAINT_TIMEOUT_MS })
    await page.locator(CHAT_PANE).first().waitFor({ timeout: PAINT_TIMEOUT_MS })
    const coldStartMs = performance.now() - start
    // A function, not a string: playwright runs it through the debugger protocol, which the page's CSP allows.
    const firstPaintMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null)
    if (browser.consoleErrors.length > 0) throw new Error(`the page logged errors: ${browser.consoleErrors.join('; ')}`)
    return { coldStartMs, firstPaintMs }
  } finally {
    await browser?.close()
    await server?.close()
    await glassbox?.close()
    data.cleanup()
  }
}

function summarise(name: string, samples: number[]): Figure {
  const sorted = [...samples].sort((a, b) => a - b)
  const round = (ms: number): number => Math.round(ms * 10) / 10
  return { name, median_ms: round(percentile(sorted, 50)), p95_ms: round(percentile(sorted, 95)), n: sorted.length }
}
