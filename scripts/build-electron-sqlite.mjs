#!/usr/bin/env node
// Builds better-sqlite3 for the installed Electron into .native/electron/better_sqlite3.node.
//
// node_modules/better-sqlite3 stays built for Node (tests, CLI, web mode); the desktop app loads this second
// build through better-sqlite3's `nativeBinding` option (src/main/store/native-binding.ts), so neither ever
// has to be rebuilt over the other. Meant to run before `npm start` / `npm run dev`; never part of `npm test`.
//
// It compiles a temporary copy of the package with node-gyp against Electron's headers, which come from
// https://electronjs.org/headers (cached by node-gyp afterwards). Offline and without cached headers it
// says so and exits 0: the app then reports that it cannot load its store, nothing else breaks.

import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, '.native', 'electron')
const outFile = join(outDir, 'better_sqlite3.node')
const stampFile = join(outDir, 'build-info.json')
const DIST_URL = 'https://electronjs.org/headers'
const devDir = join(homedir(), '.electron-gyp')
const arch = process.env.npm_config_arch || process.arch
const force = process.argv.includes('--force')

function say(message) {
  process.stdout.write(`build-electron-sqlite: ${message}\n`)
}

function versionOf(packageName) {
  const file = join(root, 'node_modules', packageName, 'package.json')
  if (!existsSync(file)) return null
  return JSON.parse(readFileSync(file, 'utf8')).version
}

async function reachable(url) {
  try {
    const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(5000) })
    return response.ok
  } catch {
    return false
  }
}

async function main() {
  const electron = versionOf('electron')
  const sqlite = versionOf('better-sqlite3')
  if (!electron || !sqlite) {
    say('electron or better-sqlite3 is not installed; run npm install first. Skipped.')
    return 0
  }
  const wanted = { electron, betterSqlite3: sqlite, arch, platform: process.platform }
  if (!force && existsSync(outFile) && existsSync(stampFile)) {
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'))
    if (JSON.stringify(stamp) === JSON.stringify(wanted)) {
      say(`up to date (Electron ${electron}, better-sqlite3 ${sqlite}, ${arch}).`)
      return 0
    }
  }

  const cachedHeaders = existsSync(join(devDir, electron, 'include'))
  const headersUrl = `${DIST_URL}/v${electron}/node-v${electron}-headers.tar.gz`
  if (!cachedHeaders && !(await reachable(headersUrl))) {
    say(`cannot reach ${headersUrl} and no cached Electron ${electron} headers in ${devDir}.`)
    say('Skipped: the desktop app needs this build; run `node scripts/build-electron-sqlite.mjs` once online.')
    return 0
  }

  const work = mkdtempSync(join(tmpdir(), 'glassbox-electron-sqlite-'))
  try {
    const source = join(root, 'node_modules', 'better-sqlite3')
    const copy = join(work, 'better-sqlite3')
    // Copy without the Node build, so the Node binary in node_modules is never touched or mixed in.
    cpSync(source, copy, {
      recursive: true,
      filter: (path) => !relative(source, path).split(/[\\/]/).includes('build')
    })
    say(`compiling better-sqlite3 ${sqlite} for Electron ${electron} (${arch}); this takes a minute…`)
    const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
    execFileSync(
      npx,
      [
        '--yes',
        'node-gyp',
        'rebuild',
        '--release',
        `--target=${electron}`,
        `--arch=${arch}`,
        `--dist-url=${DIST_URL}`,
        `--devdir=${devDir}`,
        '--runtime=electron'
      ],
      { cwd: copy, stdio: 'inherit', shell: process.platform === 'win32' }
    )
    const built = join(copy, 'build', 'Release', 'better_sqlite3.node')
    if (!existsSync(built)) throw new Error(`node-gyp finished but ${built} is missing`)
    mkdirSync(outDir, { recursive: true })
    cpSync(built, outFile)
    writeFileSync(stampFile, JSON.stringify(wanted, null, 2) + '\n')
    say(`wrote ${relative(root, outFile)}`)
    return 0
  } catch (error) {
    say(`failed: ${error instanceof Error ? error.message : String(error)}`)
    say('a C/C++ toolchain and Python are needed (see node-gyp’s README); the Node build is untouched.')
    return 1
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

process.exitCode = await main()
