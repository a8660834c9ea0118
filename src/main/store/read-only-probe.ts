import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MIGRATIONS } from './migrations'
import { openStore, STORE_FILE } from './open-store'

// Child process for open-store.test.ts when the tests run as root (root ignores file permissions): run without
// root's permission override, it makes a store read-only for real and prints, as JSON, how opening it failed.

function attempt(open: () => void): string {
  try {
    open()
    return 'opened'
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  }
}

const base = mkdtempSync(join(tmpdir(), 'glassbox-readonly-'))
const outcomes: Record<string, string> = {}
try {
  const needsMigration = join(base, 'old')
  openStore(needsMigration, { migrations: MIGRATIONS.slice(0, 1) }).close()
  const current = join(base, 'current')
  openStore(current).close()
  for (const dir of [needsMigration, current]) {
    chmodSync(join(dir, STORE_FILE), 0o444)
    chmodSync(dir, 0o555)
  }
  outcomes.needsMigration = attempt(() => openStore(needsMigration).close())
  outcomes.current = attempt(() => openStore(current).projects.ensure('/data/shop'))
  chmodSync(base, 0o555)
  outcomes.cannotCreate = attempt(() => openStore(join(base, 'new')).close())
} finally {
  chmodSync(base, 0o755)
  for (const dir of ['old', 'current']) attempt(() => chmodSync(join(base, dir), 0o755))
  rmSync(base, { recursive: true, force: true })
}
process.stdout.write(JSON.stringify(outcomes) + '\n')
