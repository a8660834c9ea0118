import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyNaoLayout, makeTempDir } from '../../../test/support/fixtures'
import { createGlassbox, type Glassbox } from './create-glassbox'

describe('listDataSources', () => {
  let glassbox: Glassbox | undefined
  const cleanups: (() => void)[] = []
  afterEach(async () => {
    await glassbox?.close()
    cleanups.splice(0).forEach((cleanup) => cleanup())
  })

  it('lists what the agent can query, with the engine and how it keeps it read-only', async () => {
    const project = copyNaoLayout()
    const data = makeTempDir()
    cleanups.push(project.cleanup, data.cleanup)
    glassbox = await createGlassbox({ dataDir: join(data.dir, 'data'), projectPath: project.dir, watch: false, extractMemories: false })
    expect(await glassbox.listDataSources({})).toEqual([
      { id: 'duckdb-jaffle-shop', engine: 'DuckDB', where: 'jaffle_shop.duckdb', readOnly: expect.stringContaining('opened read-only') }
    ])
  })
})
