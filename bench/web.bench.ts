import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { builtEntry } from '../scripts/cli-bundle.mjs'
import { BROWSER_HINT } from '../test/e2e/browser'
import { CHROMIUM, ensureRendererBuilt, openBrowser, type BrowserSession } from '../test/e2e/harness'
import { makeTempDir, NAO_LAYOUT, REPO_ROOT } from '../test/support/fixtures'
import { percentile, type Figure } from './harness'

// web/cold-start-to-paint: from starting web mode in a fresh process (`npm run web`'s bin/glassbox-web.js on
// the nao-layout fixture, a fresh store) to the React app showing the loaded project in a fresh Chromium page
// opened at the URL it prints, the way a user starts it and opens the address. "Showing" is Playwright's
// visible (laid out with a size); the paint follows within a frame. The browser is launched before the clock
// starts: a user's browser is already running. Its profile is new each time, so nothing is cached.
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
  await builtEntry('web')
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
  let web: ChildProcess | undefined
  try {
    browser = await openBrowser()
    const { page } = browser
    const start = performance.now()
    const started = startWeb(join(data.dir, 'store'))
    web = started.child
    await page.goto(await started.url, { timeout: PAINT_TIMEOUT_MS })
    await page.locator(LOADED_PROJECT).waitFor({ timeout: PAINT_TIMEOUT_MS })
    await page.locator(CHAT_PANE).first().waitFor({ timeout: PAINT_TIMEOUT_MS })
    const coldStartMs = performance.now() - start
    // A function, not a string: playwright runs it through the debugger protocol, which the page's CSP allows.
    const firstPaintMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null)
    if (browser.consoleErrors.length > 0) throw new Error(`the page logged errors: ${browser.consoleErrors.join('; ')}`)
    return { coldStartMs, firstPaintMs }
  } finally {
    await browser?.close()
    if (web && web.exitCode === null) {
      const exited = new Promise((resolve) => web?.once('exit', resolve))
      web.kill('SIGTERM')
      await exited
    }
    data.cleanup()
  }
}

/** Starts web mode in a process of its own; `url` resolves with the address it prints (token included). */
function startWeb(dataDir: string): { child: ChildProcess; url: Promise<string> } {
  const args = ['bin/glassbox-web.js', '--project', NAO_LAYOUT, '--data-dir', dataDir, '--endpoint', 'http://127.0.0.1:9/v1', '--model', 'none']
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  const url = new Promise<string>((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => reject(new Error(`web mode printed no URL within ${PAINT_TIMEOUT_MS} ms: ${stderr}`)), PAINT_TIMEOUT_MS)
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const found = /Glassbox web: (http\S+)/.exec(stdout)
      if (found) {
        clearTimeout(timer)
        resolve(found[1])
      }
    })
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`web mode exited (${code}) before printing its URL: ${stderr}`))
    })
  })
  return { child, url }
}

function summarise(name: string, samples: number[]): Figure {
  const sorted = [...samples].sort((a, b) => a - b)
  const round = (ms: number): number => Math.round(ms * 10) / 10
  return { name, median_ms: round(percentile(sorted, 50)), p95_ms: round(percentile(sorted, 95)), n: sorted.length }
}
