import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { runCli } from '../../../test/support/capture-io'
import { startScriptedServer, type ScriptedServer } from '../../../test/support/scripted-openai-server'
import { isBroken, loadTestCases } from './test-cases'

// #11 B5 and B6: tests/*.yml is read like every project file — regular files only (a named pipe never
// blocks, neither the caller nor libuv's thread pool), and through the realpath guard (a symlink out of the
// project is refused, its content never read). Real FIFOs, real symlinks.

describe('loading tests/*.yml from a hostile project', () => {
  let project: ReturnType<typeof makeTempDir>
  let outside: ReturnType<typeof makeTempDir>
  beforeEach(() => {
    project = makeTempDir('glassbox-tests-')
    outside = makeTempDir('glassbox-outside-')
    mkdirSync(join(project.dir, 'tests'))
    writeFileSync(join(project.dir, 'tests', 'good.yml'), 'name: good\nprompt: How many?\nsql: SELECT 1\n')
    // More pipes than libuv has threads (4): a blocking open on each would leave none for anything else.
    for (let index = 0; index < 8; index++) execFileSync('mkfifo', [join(project.dir, 'tests', `pipe${index}.yml`)])
    writeFileSync(join(outside.dir, 'secret.yml'), 'name: leaked\nprompt: SECRET-PROMPT-FROM-OUTSIDE\nsql: SELECT 42\n')
    symlinkSync(join(outside.dir, 'secret.yml'), join(project.dir, 'tests', 'x.yml'))
  })
  afterEach(() => {
    project.cleanup()
    outside.cleanup()
  })

  it('refuses named pipes at once and keeps the good case (B5)', async () => {
    const started = Date.now()
    const cases = await loadTestCases(project.dir)
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(cases.filter((testCase) => !isBroken(testCase)).map((testCase) => testCase.name)).toEqual(['good'])
    const pipes = cases.filter((testCase) => testCase.file.startsWith('tests/pipe'))
    expect(pipes).toHaveLength(8)
    for (const pipe of pipes) expect(pipe).toMatchObject({ error: expect.stringMatching(/^tests\/pipe\d\.yml: is not a regular file/) })
  })

  it('leaves libuv\'s thread pool free: file reads still answer after loading the pipes twice', async () => {
    await loadTestCases(project.dir)
    await loadTestCases(project.dir)
    const started = Date.now()
    await Promise.all(Array.from({ length: 8 }, () => readFile(join(project.dir, 'tests', 'good.yml'), 'utf8')))
    expect(Date.now() - started).toBeLessThan(1_000)
  })

  it('refuses tests/x.yml symlinked outside the project, reading nothing of it and naming no target (B6)', async () => {
    const cases = await loadTestCases(project.dir)
    const linked = cases.find((testCase) => testCase.file === 'tests/x.yml')
    expect(linked).toEqual({ file: 'tests/x.yml', name: 'x', error: 'tests/x.yml: it is a symlink that leads outside the project. Only files inside the project folder can be read.' })
    const everything = JSON.stringify(cases)
    expect(everything).not.toContain('SECRET')
    expect(everything).not.toContain('leaked')
    expect(everything).not.toContain(outside.dir)
  })

  describe('`glassbox test` on that project', () => {
    let server: ScriptedServer
    let data: ReturnType<typeof makeTempDir>
    beforeEach(async () => {
      data = makeTempDir('glassbox-data-')
      server = await startScriptedServer({ script: [{ text: 'no SQL needed' }] })
    })
    afterEach(async () => {
      await server.close()
      data.cleanup()
    })

    it('finishes, reports the pipes and the link as errors, and sends nothing from outside to the model', async () => {
      const started = Date.now()
      const result = await runCli(['test', '--project', project.dir, '--data-dir', data.dir, '--endpoint', server.url, '--model', 'scripted-model', '--json'])
      expect(Date.now() - started).toBeLessThan(20_000)
      const report = JSON.parse(result.stdout)
      expect(report.errored).toBeGreaterThanOrEqual(9)
      expect(result.stdout + result.stderr).not.toContain('SECRET')
      expect(JSON.stringify(server.chatRequests())).not.toContain('SECRET')
    })
  })
})
