import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { constants, Script } from 'node:vm'

// Runs a CommonJS script with V8's code cache, kept beside it (`<file>.v8cache`). Compiling the bundled
// command line is a third of a cold `glassbox prompt`; with the cache V8 reads the compiled functions back
// instead, those the last run compiled lazily included. V8 checks the cache against the source and its own
// version and flags, and a cache it rejects (or none) is written anew after the run. A folder that cannot be
// written only costs the speed-up.

/** The module's exports, and `saveCache()` to call once the work is done (it keeps what was compiled by then). */
export function loadWithCodeCache(file) {
  const cacheFile = `${file}.v8cache`
  let cachedData
  try {
    cachedData = readFileSync(cacheFile)
  } catch {
    cachedData = undefined
  }
  // The shebang line is emptied, not removed, so line numbers in stack traces stay right.
  // The bundle is ASCII (scripts/cli-bundle.mjs writes it so), and Latin-1 reads it several times faster than UTF-8.
  const source = readFileSync(file, 'latin1').replace(/^#!.*/, '')
  const wrapped = `(function (exports, require, module, __filename, __dirname, __moduleUrl) {${source}\n})`
  const script = new Script(wrapped, { filename: file, cachedData, importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER })
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href)
  const accepted = cachedData !== undefined && !script.cachedDataRejected
  return {
    exports: module.exports,
    cacheAccepted: accepted,
    saveCache() {
      if (accepted) return
      const temp = `${cacheFile}.${process.pid}`
      try {
        writeFileSync(temp, script.createCachedData())
        renameSync(temp, cacheFile)
      } catch {
        rmSync(temp, { force: true })
      }
    }
  }
}
