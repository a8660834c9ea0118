import { NAO_LAYOUT_DATABASE } from './fixtures'
import { ensureNaoLayoutDatabase } from './nao-layout-database'

// Runs once before the test files: builds the nao-layout fixture's DuckDB file from its seed.
export default async function setup(): Promise<void> {
  await ensureNaoLayoutDatabase(NAO_LAYOUT_DATABASE)
}
