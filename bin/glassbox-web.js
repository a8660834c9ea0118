#!/usr/bin/env node
// `npm run web`: starts web mode from the bundle in out/cli (rebuilt first if a source is newer).
import { pathToFileURL } from 'node:url'
import { builtEntry } from '../scripts/cli-bundle.mjs'

try {
  await import(pathToFileURL(await builtEntry('web')).href)
} catch (error) {
  process.stderr.write(`glassbox web: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}
