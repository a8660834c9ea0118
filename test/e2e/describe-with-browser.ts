import { describe } from 'vitest'
import { CHROMIUM } from './harness'

/** `describe` for suites that drive Chromium: skipped, with the reason in its name, when there is none. */
export function describeWithBrowser(name: string, body: () => void): void {
  if (CHROMIUM) describe(name, body)
  else describe.skip(`${name} (skipped: no Chromium; the run printed how to install it)`, body)
}
