import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

// One sample of project/code-before-first-prompt, in a fresh process: loading the bundled code `glassbox prompt`
// runs before the first prompt (the CLI entry and the prompt command's chunk with everything it imports
// statically). Then, separately, loading the tokenizer, which a prompt needs only for a part no earlier run
// counted. Prints both in milliseconds.

const outDir = resolve(process.argv[2])
const chunk = readdirSync(join(outDir, 'chunks')).find((file) => file.startsWith('prompt-command-'))
if (!chunk) throw new Error(`no prompt-command chunk in ${outDir}/chunks`)
const start = performance.now()
await import(pathToFileURL(join(outDir, 'cli.js')).href)
await import(pathToFileURL(join(outDir, 'chunks', chunk)).href)
const codeMs = performance.now() - start
const tokenizerStart = performance.now()
createRequire(join(outDir, 'cli.js'))('gpt-tokenizer').countTokens('warm')
const tokenizerMs = performance.now() - tokenizerStart
process.stdout.write(JSON.stringify({ codeMs, tokenizerMs }) + '\n')
