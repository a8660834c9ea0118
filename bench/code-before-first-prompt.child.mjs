import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { loadWithCodeCache } from '../scripts/cli-start.cjs'

// One sample of project/code-before-first-prompt, in a fresh process: loading the bundled code `glassbox prompt`
// runs before the first prompt (the CLI entry and the prompt command with everything it imports statically),
// as bin/glassbox.js runs it: the CommonJS bundle with V8's code cache (`cached`, the cache written by an
// earlier run), or with `es-modules` the ES module bundle the other commands run. Then, separately, loading the
// tokenizer, which a prompt needs only for a part no earlier run counted. Prints both in milliseconds.

const [outArgument, mode = 'cached'] = process.argv.slice(2)
const outDir = resolve(outArgument)
const start = performance.now()
if (mode === 'cached') {
  const cli = loadWithCodeCache(join(outDir, 'cli.cjs'))
  if (!cli.cacheAccepted) throw new Error(`no code cache accepted for ${outDir}/cli.cjs: run glassbox prompt once first`)
  await cli.exports.loadCommand('prompt')
} else {
  const chunk = readdirSync(join(outDir, 'chunks')).find((file) => file.startsWith('prompt-command-'))
  if (!chunk) throw new Error(`no prompt-command chunk in ${outDir}/chunks`)
  await import(pathToFileURL(join(outDir, 'cli.js')).href)
  await import(pathToFileURL(join(outDir, 'chunks', chunk)).href)
}
const codeMs = performance.now() - start
const tokenizerStart = performance.now()
createRequire(join(outDir, 'cli.js'))('gpt-tokenizer').countTokens('warm')
const tokenizerMs = performance.now() - tokenizerStart
process.stdout.write(JSON.stringify({ codeMs, tokenizerMs }) + '\n')
