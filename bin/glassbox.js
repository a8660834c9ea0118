#!/usr/bin/env node
// The `glassbox` command: runs the CLI bundled in out/cli (rebuilt first if a source is newer).
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { builtEntry, CACHED_ENTRY, OUT_DIR } from '../scripts/cli-bundle.mjs'
import { loadWithCodeCache } from '../scripts/code-cache.mjs'

// Commands whose start-up is most of their time run from the CommonJS bundle with V8's code cache.
const CODE_CACHED = new Set(['prompt'])

let entry
try {
  entry = await builtEntry('cli')
} catch (error) {
  process.stderr.write(`glassbox: ${error.message}\n`)
  process.exit(1)
}
const argv = process.argv.slice(2)
if (CODE_CACHED.has(argv[0])) {
  const cli = loadWithCodeCache(join(OUT_DIR, CACHED_ENTRY))
  await cli.exports.runAsProcess(argv)
  cli.saveCache()
} else {
  const { runAsProcess } = await import(pathToFileURL(entry).href)
  await runAsProcess(argv)
}
