import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

// Whether out/renderer was built from the current sources: web mode says so when it is not, and the
// end-to-end tests rebuild it rather than drive an old UI.

/** The newest modification time of the files under `dir` (0 when it does not exist). */
function newestChange(dir: string): number {
  if (!existsSync(dir)) return 0
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

/** True when src/renderer or src/shared changed after `rendererDir/index.html` was built. */
export function rendererOutdated(repoRoot: string, rendererDir: string): boolean {
  const index = join(rendererDir, 'index.html')
  if (!existsSync(index)) return true
  const sources = Math.max(newestChange(resolve(repoRoot, 'src/renderer')), newestChange(resolve(repoRoot, 'src/shared')))
  return sources > statSync(index).mtimeMs
}
