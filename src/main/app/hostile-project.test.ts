import { execFileSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { copyNaoLayout, makeTempDir } from '../../../test/support/fixtures'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { engineOf } from '../agent/sql/database-pool'
import { readDatabaseConfigs } from '../data/database-config'
import { syncProject } from '../data/sync'
import { createGlassbox, type Glassbox } from './create-glassbox'

// #11 B4: a project whose files are named pipes (real FIFOs) — as a declared database, as nao_config.yaml —
// must not hang the first message, the prompt or sync. Only regular files are ever opened.

describe('named pipes in a project (#11 B4)', () => {
  let project: ReturnType<typeof copyNaoLayout>
  let data: ReturnType<typeof makeTempDir>
  let server: ScriptedServer | undefined
  let glassbox: Glassbox | undefined
  beforeEach(() => {
    project = copyNaoLayout()
    data = makeTempDir()
    execFileSync('mkfifo', [join(project.dir, 'pipe.duckdb')])
    writeFileSync(
      join(project.dir, 'nao_config.yaml'),
      'project_name: hostile\ndatabases:\n  - name: piped\n    type: duckdb\n    path: pipe.duckdb\n'
    )
  })
  afterEach(async () => {
    await glassbox?.close()
    await server?.close()
    glassbox = undefined
    server = undefined
    project.cleanup()
    data.cleanup()
  })

  it('the database-type sniff refuses the pipe at once', () => {
    const started = Date.now()
    expect(engineOf(join(project.dir, 'pipe.duckdb'))).toBeNull()
    // Opening a FIFO for reading would block until a writer came: seconds here would mean a hang.
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('the first message of a chat is answered (execute_sql says there is no such database) instead of hanging', async () => {
    server = await startScriptedServer({
      script: [{ toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT 1', database_id: 'piped' } }] }, { text: 'Done.' }]
    })
    glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, endpoint: server.url, model: 'scripted-model', watch: false, extractMemories: false })
    const chat = await glassbox.createChat({})
    const started = Date.now()
    const { runId } = await glassbox.sendMessage({ chatId: chat.id, text: 'How many orders?' })
    await glassbox.waitForRun(runId)
    expect(Date.now() - started).toBeLessThan(15_000)
    const messages = (await glassbox.getChat({ chatId: chat.id })).messages
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Done.' })
    // The model is told which file it is and what is wrong with it, not that nothing was declared.
    expect(messages.at(-1)?.toolCalls?.[0]).toMatchObject({
      ok: false,
      output: expect.stringContaining('The database "piped" declared in nao_config.yaml is pipe.duckdb, which is not a regular file')
    })
  })

  it('sync reports the pipe as an error and returns', async () => {
    const started = Date.now()
    const result = await syncProject(project.dir)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(result.errors).toEqual(['piped: pipe.duckdb is not a regular file (a pipe, socket or device); only database files are read'])
  })

  it('nao_config.yaml as a pipe: sync and the prompt go on with a problem reported', async () => {
    rmSync(join(project.dir, 'nao_config.yaml'))
    execFileSync('mkfifo', [join(project.dir, 'nao_config.yaml')])
    expect(readDatabaseConfigs(project.dir).problems).toEqual([expect.stringMatching(/^nao_config\.yaml cannot be read: .*not a regular file/)])
    glassbox = await createGlassbox({ dataDir: data.dir, projectPath: project.dir, watch: false, extractMemories: false })
    const preview = await glassbox.preview({ question: 'How many orders?' })
    expect(preview.system).toContain('# Instructions')
  })
})
