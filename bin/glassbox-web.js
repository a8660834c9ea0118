#!/usr/bin/env node
'use strict'
// `npm run web`: starts web mode from the bundle in out/cli (rebuilt first if a source is newer).
const { pathToFileURL } = require('node:url')

async function start() {
  try {
    const { builtEntry } = await import('../scripts/cli-bundle.mjs')
    await import(pathToFileURL(await builtEntry('web')).href)
  } catch (error) {
    process.stderr.write(`glassbox web: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
}

void start()
