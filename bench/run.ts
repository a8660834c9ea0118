import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { report, type Figure } from './harness'
import { NAO_LAYOUT_DATABASE } from '../test/support/fixtures'
import { ensureNaoLayoutDatabase } from '../test/support/nao-layout-database'

// Runs every bench/*.bench.ts (each exports `figures(): AsyncIterable<Figure>` or returns Figure[]).
// `npm run bench -- system-prompt` runs only the files whose name contains that word.

const filter = process.argv[2]
const here = import.meta.dirname
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts') && (!filter || file.includes(filter)))
  .sort()

// Several figures run on the nao-layout fixture, whose DuckDB file is built from a seed.
await ensureNaoLayoutDatabase(NAO_LAYOUT_DATABASE)

for (const file of files) {
  const module = (await import(join(here, file))) as { figures: () => AsyncIterable<Figure> | Promise<Figure[]> }
  const result = module.figures()
  if (Symbol.asyncIterator in result) for await (const figure of result) report(figure)
  else for (const figure of await result) report(figure)
}
