#!/usr/bin/env node
// The `glassbox` command: runs the CLI bundled in out/cli (rebuilt first if a source is newer).
import { pathToFileURL } from 'node:url'
import { builtEntry } from '../scripts/cli-bundle.mjs'

let entry
try {
  entry = await builtEntry('cli')
} catch (error) {
  process.stderr.write(`glassbox: ${error.message}\n`)
  process.exit(1)
}
const { main } = await import(pathToFileURL(entry).href)
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text)
})
