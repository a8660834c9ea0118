import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'

// Which Chromium the browser tests drive: $CHROMIUM_PATH, else the first of chromium, chromium-browser,
// google-chrome on $PATH. Without one the browser suites are skipped with an install hint, unless
// GLASSBOX_REQUIRE_BROWSER=1 (CI) makes the missing browser a failure.

const NAMES = ['chromium', 'chromium-browser', 'google-chrome']

export const BROWSER_HINT =
  'Browser tests skipped: no Chromium found ($CHROMIUM_PATH, or chromium, chromium-browser or google-chrome on $PATH). Install it (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH=/path/to/chrome.'

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The browser to launch, or null when the machine has none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CHROMIUM_PATH) return isExecutableFile(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null
  for (const name of NAMES) {
    for (const dir of (env.PATH ?? '').split(delimiter)) {
      if (dir && isExecutableFile(join(dir, name))) return join(dir, name)
    }
  }
  return null
}

export function browserRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GLASSBOX_REQUIRE_BROWSER === '1'
}

/** Why the browser is missing, for the error that fails the run (or a suite that did not skip). */
export function missingBrowserError(env: NodeJS.ProcessEnv = process.env): Error {
  const where = env.CHROMIUM_PATH ? `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file` : 'no chromium, chromium-browser or google-chrome on PATH'
  const lead = browserRequired(env) ? `GLASSBOX_REQUIRE_BROWSER=1 but ${where}` : `No browser to drive: ${where}`
  return new Error(`${lead}: install Chromium (apt-get install chromium) or set CHROMIUM_PATH.`)
}

/** The browser, or null (skip) — throwing when the run requires one. */
export function chromiumOrSkip(env: NodeJS.ProcessEnv = process.env): string | null {
  const path = findChromium(env)
  if (!path && browserRequired(env)) throw missingBrowserError(env)
  return path
}
