'use strict'
const { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs')
const { createRequire } = require('node:module')
const { dirname, join, resolve, sep } = require('node:path')
const { pathToFileURL } = require('node:url')
const { Script } = require('node:vm')

// What every start of the bundled command line needs before it runs: where the bundle is, whether a source is
// newer than it (scripts/cli-bundle.mjs rebuilds it then), and loading the CommonJS bundle with V8's code cache.
// CommonJS, with Node's built-ins only, so bin/glassbox.js stays a CommonJS script: started from an ES module
// entry, `glassbox prompt` took ~10 ms longer.

const ROOT = resolve(__dirname, '..')
const OUT_DIR = join(ROOT, 'out', 'cli')
const INFO_FILE = 'build-info.json'
/** The command line as one CommonJS script, for the commands bin/glassbox.js runs with V8's code cache. */
const CACHED_ENTRY = 'cli.cjs'

/** Why the bundle must be (re)built, or null when it is current. */
function staleReason(outDir = OUT_DIR, root = ROOT) {
  const infoPath = join(outDir, INFO_FILE)
  const built = statSync(infoPath, { throwIfNoEntry: false })
  if (!built) return 'out/cli is not built yet'
  let info
  try {
    info = JSON.parse(readFileSync(infoPath, 'utf8'))
  } catch {
    return 'out/cli/build-info.json is unreadable'
  }
  // Inputs are relative paths with forward slashes (esbuild's metafile), which every platform's fs accepts
  // after the root and a slash: path.join of each, not yet optimised this early in a process, took ~3 ms.
  const prefix = root.endsWith('/') || root.endsWith(sep) ? root : root + '/'
  for (const input of info.inputs) {
    // One stat per input (every start pays for it). A deleted source also means the bundle no longer matches.
    const source = statSync(prefix + input, { throwIfNoEntry: false })
    if (!source) return `${input} is gone`
    if (source.mtimeMs > built.mtimeMs) return `${input} changed`
  }
  return null
}

/** What the CommonJS script is wrapped in: a function of what CommonJS gives a module, and of what this loader adds. */
const SCRIPT_HEAD = '(function (exports, require, module, __filename, __dirname, __moduleUrl, __import, __buildCache) {'
const SCRIPT_TAIL = '\n})'

/**
 * The bundled CommonJS `code` as the script loadWithCodeCache runs, written so by the build: wrapping it at each
 * start made a joined string that V8 copies whole before compiling it (~260 pages of new memory, 1 MB). Its
 * shebang line is emptied, not removed, so line numbers in stack traces stay those of the bundle.
 */
function wrapScript(code) {
  return SCRIPT_HEAD + code.replace(/^#!.*/, '') + SCRIPT_TAIL
}

/**
 * Runs a CommonJS script (wrapped by wrapScript) with V8's code cache, kept beside it (`<file>.v8cache`), and returns its exports and
 * `saveCache()`, to call once the work is done (the cache keeps what was compiled by then, the functions the run
 * compiled lazily included). Compiling the bundled command line is a third of a cold `glassbox prompt`; with
 * the cache V8 reads the compiled functions back instead. V8 checks the cache against the source and its own
 * version and flags, and a cache it rejects (or none) is written anew after the run. A folder that cannot be
 * written only costs the speed-up. The script also gets the cache of values derived from its code alone
 * (see openBuildCache), as `__buildCache`, saved with the code cache.
 */
function loadWithCodeCache(file) {
  const cacheFile = `${file}.v8cache`
  // The script's bytes are garbage once decoded, so the cache is read into the same memory: the pages of one
  // megabyte buffer are touched once, not two buffers' (each first touch of a page is a fault, ~14 µs on a VM).
  const bytes = readWhole(file)
  // The bundle is ASCII (scripts/cli-bundle.mjs writes it so), and Latin-1 reads it several times faster than
  // UTF-8. It is read as the build wrapped it (wrapScript), so V8 compiles the string read, not a copy joined.
  const wrapped = bytes.toString('latin1')
  if (!wrapped.startsWith(SCRIPT_HEAD)) throw new Error(`${file} is not a script the build wrapped: run \`npm run build:cli\``)
  let cachedData
  try {
    cachedData = readWhole(cacheFile, Buffer.from(bytes.buffer))
  } catch {
    cachedData = undefined
  }
  const script = new Script(wrapped, { filename: file, cachedData })
  const loaded = { exports: {} }
  const buildCache = openBuildCache(file)
  script.runInThisContext()(loaded.exports, createRequire(file), loaded, file, dirname(file), pathToFileURL(file).href, importFromBundle, buildCache)
  const accepted = cachedData !== undefined && !script.cachedDataRejected
  return {
    exports: loaded.exports,
    cacheAccepted: accepted,
    saveCache() {
      buildCache.save()
      if (!accepted) writeAtomically(cacheFile, () => script.createCachedData())
    }
  }
}

/** The whole of the file at `path`, read into `reuse` when given and big enough (the bytes returned share its memory). */
function readWhole(path, reuse) {
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    const into = reuse !== undefined && reuse.length >= size ? reuse : Buffer.allocUnsafeSlow(size)
    let length = 0
    while (length < size) {
      const read = readSync(fd, into, length, size - length, null)
      if (read === 0) break
      length += read
    }
    return into.subarray(0, length)
  } finally {
    closeSync(fd)
  }
}

/**
 * Values that depend on the script's code alone, the same in every run of one build (the agent tools' JSON
 * schemas: ~1 ms of zod at every start), kept beside it (`<file>.derived.json`) under the script's size and
 * mtime: a rebuilt script finds the old ones not matching, derives them again and writes them anew.
 */
function openBuildCache(file) {
  const cacheFile = `${file}.derived.json`
  const info = statSync(file)
  const build = `${info.size}:${info.mtimeMs}`
  let values = new Map()
  try {
    const kept = JSON.parse(readFileSync(cacheFile, 'utf8'))
    if (kept && kept.build === build && kept.values && typeof kept.values === 'object') values = new Map(Object.entries(kept.values))
  } catch {
    // None yet, or unreadable: everything is derived and written anew.
  }
  let added = false
  const laterWrites = new Map()
  return {
    get: (key) => values.get(key),
    set(key, value) {
      values.set(key, value)
      added = true
    },
    // Files derived from what this build runs with (too big for JSON), kept in its folder and gone with it when
    // the build is replaced; written once the run is done, not while it waits.
    file: (name) => join(dirname(file), name),
    writeFileLater(name, write) {
      laterWrites.set(name, write)
    },
    save() {
      if (added) writeAtomically(cacheFile, () => JSON.stringify({ build, values: Object.fromEntries(values) }))
      added = false
      for (const [name, write] of laterWrites) {
        try {
          write(join(dirname(file), name))
        } catch {
          // A folder that cannot be written only costs the speed-up.
        }
      }
      laterWrites.clear()
    }
  }
}

/** Writes the file through a temporary one, so no reader sees half of it; a folder that cannot be written is left alone. */
function writeAtomically(file, content) {
  const temp = `${file}.${process.pid}`
  try {
    writeFileSync(temp, content())
    renameSync(temp, file)
  } catch {
    rmSync(temp, { force: true })
  }
}

/**
 * The bundle's `import()` of a package left in node_modules (scripts/cli-bundle.mjs writes each as a call of
 * this): Node 20 runs no `import()` in a script compiled from a code cache ("A dynamic import callback was not
 * specified"), and its loader for one without is experimental and warns. Resolved from here as from out/cli:
 * both find the project's node_modules.
 */
function importFromBundle(specifier) {
  return import(specifier)
}

module.exports = { ROOT, OUT_DIR, INFO_FILE, CACHED_ENTRY, staleReason, loadWithCodeCache, wrapScript }
