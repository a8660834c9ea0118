import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { modelThatJoinsOnWhatItRead } from '../../../test/support/foreign-key-model'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { createGlassbox, type Glassbox } from '../app/create-glassbox'
import { syncProject } from '../data/sync'

// The point of keys in columns.md: a model that reads the synced context can join on the foreign key it
// finds there instead of guessing. The scripted model writes its JOIN only from what the read tool returned
// (test/support/foreign-key-model.ts).

describe('a model joins on a foreign key it read from the synced context', () => {
  let temp: ReturnType<typeof makeTempDir> | undefined
  let server: ScriptedServer | undefined
  let glassbox: Glassbox | undefined
  afterEach(async () => {
    await glassbox?.close()
    await server?.close()
    temp?.cleanup()
  })

  it('reads the key (→ models.code) in columns.md and answers from the JOIN', async () => {
    temp = makeTempDir('glassbox-fk-')
    const instance = await DuckDBInstance.create(join(temp.dir, 'dealer.duckdb'))
    const connection = await instance.connect()
    // The key column is not named after its table: only the key in columns.md tells where it leads.
    await connection.run(`CREATE TABLE models (code INTEGER PRIMARY KEY, model VARCHAR NOT NULL);
      CREATE TABLE sales (id INTEGER PRIMARY KEY, car_id INTEGER NOT NULL REFERENCES models (code), price DECIMAL(10,2) NOT NULL);
      INSERT INTO models VALUES (7, 'Roadster'), (9, 'Estate');
      INSERT INTO sales VALUES (1, 7, 40000), (2, 7, 40500), (3, 9, 29000);`)
    connection.closeSync()
    instance.closeSync()
    writeFileSync(join(temp.dir, 'nao_config.yaml'), 'project_name: dealer\ndatabases:\n  - {name: dealer, type: duckdb, path: dealer.duckdb}\n')
    expect((await syncProject(temp.dir)).errors).toEqual([])

    server = await startScriptedServer({
      script: modelThatJoinsOnWhatItRead({
        columnsFile: 'databases/type=duckdb/database=dealer/schema=main/table=sales/columns.md',
        fact: 'sales',
        keyColumn: 'car_id',
        label: 'model',
        amount: 'price'
      })
    })
    glassbox = await createGlassbox({ dataDir: join(temp.dir, '.data'), projectPath: temp.dir, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
    const chat = await glassbox.createChat({})
    await glassbox.waitForRun((await glassbox.sendMessage({ chatId: chat.id, text: 'Which model sold the most?' })).runId)
    const answer = (await glassbox.getChat({ chatId: chat.id })).messages.at(-1)
    expect(answer?.toolCalls?.map((call) => [call.name, call.ok])).toEqual([
      ['read', true],
      ['execute_sql', true]
    ])
    expect(answer?.text).toBe('Roadster sold the most: 80500.00.')
  })
})
