import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { builtEntry } from '../../scripts/cli-bundle.mjs'
import { BROWSER_HINT, chromiumOrSkip } from '../e2e/browser'
import { NAO_LAYOUT_DATABASE } from './fixtures'
import { ensureNaoLayoutDatabase } from './nao-layout-database'

// Runs once before the test files: builds the nao-layout fixture's DuckDB file from its seed, brings the CLI
// bundle up to date (tests that spawn `glassbox` then never build it side by side), and says once why the
// browser suites will be skipped (or fails the run when GLASSBOX_REQUIRE_BROWSER=1 and none is found).
// Commands run in tests without --data-dir keep their store in a throw-away folder, not the user's; the test
// processes inherit it, and it is removed when the run ends.
export default async function setup(): Promise<() => void> {
  if (!chromiumOrSkip()) console.log(BROWSER_HINT)
  await ensureNaoLayoutDatabase(NAO_LAYOUT_DATABASE)
  await builtEntry('cli')
  const dataDir = mkdtempSync(join(tmpdir(), 'glassbox-vitest-'))
  process.env.GLASSBOX_DATA_DIR = dataDir
  return () => rmSync(dataDir, { recursive: true, force: true })
}
