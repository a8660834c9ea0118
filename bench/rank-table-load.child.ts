import { createRequire } from 'node:module'
import { join } from 'node:path'
import { countingWithRankTable, ranksVersion } from '../src/main/prompt/rank-table'

// One sample of tokenizer/load-rank-table, in a fresh process: loading the tokenizer as the bundled command line
// does once its build keeps the rank table (the file given), to its first count. Prints the milliseconds. Run as
// plain JavaScript, bundled by process.bench.ts (under tsx, its loader hooks slowed every require): packages
// resolve from the working folder, the repository.

const [file] = process.argv.slice(2)
const load = createRequire(join(process.cwd(), 'package.json'))
const start = performance.now()
const version = ranksVersion(load)
const count = version && countingWithRankTable(file, version, load)
if (!count) throw new Error(`${file} is no rank table of the installed gpt-tokenizer: run glassbox prompt once with a new --question first`)
count('warm')
process.stdout.write(JSON.stringify({ ms: performance.now() - start }) + '\n')
