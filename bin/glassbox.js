#!/usr/bin/env node
'use strict'
// The `glassbox` command: runs the CLI bundled in out/cli (rebuilt first if a source is newer). A CommonJS
// script (bin/package.json): from an ES module entry, `glassbox prompt` took ~10 ms longer.
const { join } = require('node:path')
const { pathToFileURL } = require('node:url')
const { CACHED_ENTRY, OUT_DIR, loadWithCodeCache, staleReason } = require('../scripts/cli-start.cjs')

// Commands whose start-up is most of their time run from the CommonJS bundle with V8's code cache.
const CODE_CACHED = new Set(['prompt'])

async function run(argv) {
  if (staleReason() !== null) {
    try {
      const { builtEntry } = await import('../scripts/cli-bundle.mjs')
      await builtEntry('cli')
    } catch (error) {
      process.stderr.write(`glassbox: ${error.message}\n`)
      process.exit(1)
    }
  }
  if (CODE_CACHED.has(argv[0])) {
    const cli = loadWithCodeCache(join(OUT_DIR, CACHED_ENTRY))
    await cli.exports.runAsProcess(argv)
    cli.saveCache()
    // Nothing is left to do once the output is out (the command closed the store itself). Ending here skips
    // waiting for the probed ports' sockets to close and V8 freeing the heap: 1–2 ms of a small project's prompt.
    await Promise.all([flushed(process.stdout), flushed(process.stderr)])
    process.exit()
  } else {
    const { runAsProcess } = await import(pathToFileURL(join(OUT_DIR, 'cli.js')).href)
    await runAsProcess(argv)
  }
}

/**
 * Resolves once everything written to `stream` has been handed to the OS. Writes to a pipe are asynchronous:
 * an exit before then would cut the output short for a reader slower than the prompt.
 */
function flushed(stream) {
  if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve()
  // Written after everything before it, so its callback comes once all of that is out (or failed).
  return new Promise((resolve) => stream.write('', () => resolve()))
}

void run(process.argv.slice(2))
