import { execFile, spawn, spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyProject, makeTempDir, NAO_LAYOUT, REPO_ROOT } from './support/fixtures'
import { startScriptedServer } from './support/scripted-openai-server'
import { importLogFlags, packageFilesLoaded } from './support/loaded-packages'
import { asciiOnly, LAZY_PACKAGES, loadWithCodeCache, packageOf, routeDynamicImports, staleReason, wrapScript } from '../scripts/cli-bundle.mjs'

// The `glassbox` bin and `npm run web` run esbuild's bundle in out/cli: no TypeScript compiler at run time,
// rebuilt when a source is newer, heavy packages loaded only by the commands that use them.

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

/** Runs the bin, or with `entry` another script (out/cli/cli.js: the ES module bundle, without the bin). */
function glassbox(args: string[], env: NodeJS.ProcessEnv = {}, entry = 'bin/glassbox.js') {
  const record = env.GLASSBOX_IMPORT_LOG ? importLogFlags() : []
  return spawnSync(process.execPath, [...record, entry, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000
  })
}

describe('the glassbox bin', () => {
  it('runs from out/cli (the test set-up brought it up to date) and prints the usage', () => {
    const result = glassbox(['--help'])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('Usage: glassbox <command>')
    // Current, so nothing is said about building.
    expect(result.stderr).toBe('')
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'out/cli/build-info.json'), 'utf8')).inputs).toContain('src/main/cli.ts')
  }, 120_000)

  it('ends quietly, with its exit code, when the reader of its output goes away (`glassbox prompt | head`)', async () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const child = spawn(process.execPath, ['bin/glassbox.js', 'prompt', '--project', 'resources/sample-project', '--json', '--data-dir', temp.dir], { cwd: REPO_ROOT })
    // The read end closes before anything is written: the prompt's first write fails with EPIPE.
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    expect(stderr).toBe('')
    expect(status).toBe(0)
  }, 120_000)

  it('prompt hands a reader slower than itself all of its output before it exits', async () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const project = copyProject(join(REPO_ROOT, 'resources', 'sample-project'), 'slow-reader')
    cleanups.push(project.cleanup)
    // Far more than a pipe holds (64 KB on Linux): most of it is still to be written when the prompt is done.
    writeFileSync(join(project.dir, 'RULES.md'), Array.from({ length: 3000 }, (_, index) => `- Rule ${index}: amounts of region ${index} are in euros.\n`).join(''))
    const args = ['bin/glassbox.js', 'prompt', '--project', project.dir, '--json', '--data-dir', temp.dir]
    const whole = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 1 << 26 })
    expect(whole.status).toBe(0)
    expect(whole.stdout.length).toBeGreaterThan(200_000)
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT })
    let stdout = ''
    // Paused first, so the listener does not start the flow: nothing is read for a while, and the prompt fills
    // the pipe and must wait for the reader.
    child.stdout.pause()
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const status = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    await new Promise((resolve) => setTimeout(resolve, 1500))
    child.stdout.resume()
    expect(await status).toBe(0)
    expect(stdout.length).toBe(whole.stdout.length)
    expect(JSON.parse(stdout).system).toBe(JSON.parse(whole.stdout).system)
  }, 120_000)

  it('prompt loads neither tsx, LangChain nor DuckDB', () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const log = join(temp.dir, 'imports.log')
    const result = glassbox(['prompt', '--project', 'resources/sample-project', '--data-dir', temp.dir, '--json'], { GLASSBOX_IMPORT_LOG: log })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(JSON.parse(result.stdout).system).toContain('# Instructions')
    const imported = readFileSync(log, 'utf8').split('\n')
    // The bundle ran (its store module required better-sqlite3), so the log is not empty by accident.
    expect(imported.some((line) => line.includes('/node_modules/better-sqlite3/'))).toBe(true)
    expect(imported.filter((url) => url.includes('/src/main/') || /node_modules\/(tsx|@langchain|@duckdb)\//.test(url))).toEqual([])
  }, 120_000)

  it('prompt loads none of the Node built-ins only other commands use: child_process, worker_threads, readline, fs/promises, perf_hooks', () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const log = join(temp.dir, 'builtins.log')
    const result = spawnSync(process.execPath, ['--require', join(REPO_ROOT, 'test/support/record-builtins.cjs'), 'bin/glassbox.js', 'prompt', '--project', 'resources/sample-project', '--data-dir', temp.dir, '--json'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, GLASSBOX_BUILTIN_LOG: log },
      timeout: 120_000
    })
    expect(result.status).toBe(0)
    const builtins = readFileSync(log, 'utf8').split('\n')
    // The log is the real list: the store's hashing loaded crypto.
    expect(builtins).toContain('crypto')
    expect(builtins.filter((name) => ['child_process', 'worker_threads', 'readline/promises', 'dgram', 'fs/promises', 'perf_hooks'].includes(name))).toEqual([])
  }, 120_000)

  it('prompt loads the tokenizer only for parts not counted before, and neither pg nor chokidar', () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const loaded = (log: string): string[] => {
      const result = glassbox(['prompt', '--project', 'resources/sample-project', '--data-dir', temp.dir, '--json'], { GLASSBOX_IMPORT_LOG: log })
      expect(result.stderr).toBe('')
      expect(result.status).toBe(0)
      return readFileSync(log, 'utf8').split('\n')
    }
    const heavy = /node_modules\/(pg|chokidar|gpt-tokenizer)\//
    const first = loaded(join(temp.dir, 'first.log'))
    expect(first.filter((line) => heavy.test(line)).every((line) => line.includes('/gpt-tokenizer/'))).toBe(true)
    expect(first.some((line) => line.includes('/gpt-tokenizer/'))).toBe(true)
    // The same prompt again: every part's count is in the store.
    expect(loaded(join(temp.dir, 'again.log')).filter((line) => heavy.test(line))).toEqual([])
  }, 120_000)
})

describe('the code `glassbox prompt` loads', () => {
  function promptPackageFiles(args: string[]): string[] {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const { result, files } = packageFilesLoaded([...args, '--data-dir', temp.dir], join(temp.dir, 'imports.log'))
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    return files
  }

  it("leaves out what only other commands use: the MCP SDK, its JSON-schema validator, gray-matter's js-yaml 3 and esprima, the YAML writer, the Handlebars compiler, zod locales", () => {
    const files = promptPackageFiles(['prompt', '--project', 'resources/sample-project', '--json'])
    const loaded = new Set(files.map((file) => packageOf(file) ?? file))
    // What a prompt needs is there (the check can see bundled packages at all): js-yaml 4 reads YAML.
    expect(loaded).toContain('gray-matter')
    expect(loaded).toContain('js-yaml')
    expect(files.filter((file) => file.includes('gray-matter/node_modules/'))).toEqual([])
    // `yaml` only writes the files Glassbox creates.
    expect(loaded).not.toContain('yaml')
    // The Handlebars runtime renders the precompiled built-in template; its compiler ships with source-map.
    expect(loaded).toContain('handlebars')
    for (const unneeded of ['@modelcontextprotocol/sdk', 'ajv', 'esprima', 'source-map']) expect(loaded).not.toContain(unneeded)
    // zod speaks English only: none of its other locales.
    expect(files.filter((file) => file.includes('zod/v4/locales/'))).toEqual(['node_modules/zod/v4/locales/en.js'])
  }, 120_000)

  it('builds its schemas with zod/mini: classic zod, its whole class hierarchy built on load, is not among them', () => {
    const files = promptPackageFiles(['prompt', '--project', 'resources/sample-project', '--json'])
    expect(files).toContain('node_modules/zod/v4/mini/schemas.js')
    expect(files.filter((file) => file.startsWith('node_modules/zod/v4/classic/'))).toEqual([])
  }, 120_000)
})

describe('the code cache `glassbox prompt` runs with', () => {
  it('is written by the first run, taken by the next, and a damaged one is replaced; the prompt is the same every time', () => {
    // A copy of the bundle in a folder of its own under out/ (packages resolve from the repository as for out/cli).
    const folder = join(REPO_ROOT, 'out', `code-cache-test-${process.pid}`)
    mkdirSync(folder, { recursive: true })
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }))
    const bundle = join(folder, 'cli.cjs')
    copyFileSync(join(REPO_ROOT, 'out', 'cli', 'cli.cjs'), bundle)
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const args = ['prompt', '--project', 'resources/sample-project', '--question', 'Revenue by month?', '--now', '2026-01-31T09:00:00Z', '--json', '--data-dir', temp.dir]
    const run = (): { stdout: string; cache: string | undefined } => {
      const result = spawnSync(process.execPath, ['test/support/run-code-cached.mjs', bundle, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 })
      expect(result.status, result.stderr).toBe(0)
      return { stdout: result.stdout, cache: result.stderr.trim().split('\n').at(-1) }
    }
    const expected = glassbox(args, {}, 'out/cli/cli.js').stdout
    expect(JSON.parse(expected).user).toContain('Revenue by month?')
    expect(run()).toEqual({ stdout: expected, cache: 'code cache not used' })
    expect(existsSync(`${bundle}.v8cache`)).toBe(true)
    expect(run()).toEqual({ stdout: expected, cache: 'code cache accepted' })
    writeFileSync(`${bundle}.v8cache`, 'not a code cache')
    expect(run()).toEqual({ stdout: expected, cache: 'code cache not used' })
    expect(run()).toEqual({ stdout: expected, cache: 'code cache accepted' })
  }, 120_000)
})

describe('the CommonJS script as the build wraps it', () => {
  it('runs as a module with the lines of the bundle, from its code cache too, and a script not wrapped is refused with how to rebuild', () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const wrapped = join(temp.dir, 'wrapped.cjs')
    writeFileSync(wrapped, wrapScript('#!/usr/bin/env node\n"use strict";\nexports.line = () => new Error("here").stack\nexports.name = __filename'), 'latin1')
    const first = loadWithCodeCache(wrapped)
    expect(first.exports.name).toBe(wrapped)
    // Line 3 of the bundle esbuild wrote, shebang line included.
    expect((first.exports.line as () => string)()).toContain(`${wrapped}:3:`)
    first.saveCache()
    // A cache bigger than its script (this one) is read into memory of its own, not the script's buffer.
    expect(statSync(`${wrapped}.v8cache`).size).toBeGreaterThan(statSync(wrapped).size)
    const second = loadWithCodeCache(wrapped)
    expect(second.cacheAccepted).toBe(true)
    expect((second.exports.line as () => string)()).toContain(`${wrapped}:3:`)
    const bare = join(temp.dir, 'bare.cjs')
    writeFileSync(bare, '"use strict";\nexports.line = 1\n')
    expect(() => loadWithCodeCache(bare)).toThrow(`${bare} is not a script the build wrapped: run \`npm run build:cli\``)
  })
})

describe('the values derived from the code alone, kept beside the bundle', () => {
  it("are the tools' JSON schemas as the code makes them, written by the first run, read by the next, and made again for another build", async () => {
    const folder = join(REPO_ROOT, 'out', `build-cache-test-${process.pid}`)
    mkdirSync(folder, { recursive: true })
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }))
    const bundle = join(folder, 'cli.cjs')
    copyFileSync(join(REPO_ROOT, 'out', 'cli', 'cli.cjs'), bundle)
    const derivedFile = `${bundle}.derived.json`
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const args = ['prompt', '--project', 'resources/sample-project', '--now', '2026-01-31T09:00:00Z', '--json', '--data-dir', temp.dir]
    const run = (): { toolTokens: number; stdout: string } => {
      const result = spawnSync(process.execPath, ['test/support/run-code-cached.mjs', bundle, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 })
      expect(result.status, result.stderr).toBe(0)
      const parts = (JSON.parse(result.stdout) as { budget: { parts: Array<{ name: string; tokens: number }> } }).budget.parts
      return { toolTokens: parts.find((part) => part.name === 'tools')?.tokens ?? NaN, stdout: result.stdout }
    }
    const { createAgentTools } = await import('../src/main/agent/tools')
    const expected = Object.fromEntries(createAgentTools().map((tool) => [`tool-parameters:${tool.name}`, tool.parameters]))
    const derived = () => JSON.parse(readFileSync(derivedFile, 'utf8')) as { build: string; values: Record<string, unknown> }

    const first = run()
    expect(derived().values).toEqual(expected)
    expect(run()).toEqual(first)
    // Read, not derived again: a changed value in the file changes the prompt's count of the tools.
    const kept = derived()
    const shorter = { ...kept, values: { ...kept.values, 'tool-parameters:read': { type: 'object' } } }
    writeFileSync(derivedFile, JSON.stringify(shorter))
    expect(run().toolTokens).toBeLessThan(first.toolTokens)
    // Kept for another build of the bundle: not used, and written anew for this one.
    writeFileSync(derivedFile, JSON.stringify({ ...shorter, build: 'another build' }))
    expect(run()).toEqual(first)
    expect(derived()).toEqual(kept)
  }, 120_000)
})

describe("the tokenizer's rank table, kept in the build's folder", () => {
  it("is written after the first run that loaded the library's vocabulary, by either bundle, serves the next runs of both with the library's counts, and a damaged one is replaced", () => {
    // A copy of the build (both bundles) in a folder of its own under out/, without a table yet.
    const folder = join(REPO_ROOT, 'out', `rank-table-test-${process.pid}`)
    cpSync(join(REPO_ROOT, 'out', 'cli'), folder, { recursive: true, filter: (source) => !source.endsWith('o200k.ranks') })
    cleanups.push(() => rmSync(folder, { recursive: true, force: true }))
    const table = join(folder, 'o200k.ranks')
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    let questions = 0
    /**
     * A prompt with a question no run counted before, from the CommonJS bundle (as the bin runs it) or the ES
     * module one, and from the sources, which count with the library itself.
     */
    const run = (bundle: 'cli.cjs' | 'cli.js'): { stdout: string; expected: string; ranksModuleLoaded: boolean } => {
      const args = ['prompt', '--project', 'resources/sample-project', '--question', `Ünïcödé revenue ✓ 日本語 in region ${++questions}?`, '--now', '2026-01-31T09:00:00Z', '--json']
      const log = join(temp.dir, `requires-${questions}.log`)
      const entry = bundle === 'cli.cjs' ? ['test/support/run-code-cached.mjs', join(folder, bundle)] : [join(folder, bundle)]
      const result = spawnSync(process.execPath, ['--require', join(REPO_ROOT, 'test/support/record-requires.cjs'), ...entry, ...args, '--data-dir', join(temp.dir, 'store')], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, GLASSBOX_IMPORT_LOG: log },
        timeout: 120_000
      })
      expect(result.status, result.stderr).toBe(0)
      const sources = spawnSync(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', ...args, '--data-dir', join(temp.dir, 'library-store')], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, TSX_TSCONFIG_PATH: join(REPO_ROOT, 'tsconfig.node.json') },
        timeout: 120_000
      })
      expect(sources.status, sources.stderr).toBe(0)
      return { stdout: result.stdout, expected: sources.stdout, ranksModuleLoaded: readFileSync(log, 'utf8').includes('gpt-tokenizer/cjs/bpeRanks/o200k_base.js') }
    }
    const first = run('cli.js')
    expect(first.ranksModuleLoaded).toBe(true)
    expect(first.stdout).toBe(first.expected)
    expect(existsSync(table)).toBe(true)
    const second = run('cli.cjs')
    expect(second.ranksModuleLoaded).toBe(false)
    expect(second.stdout).toBe(second.expected)
    writeFileSync(table, 'not a rank table')
    const damaged = run('cli.cjs')
    expect(damaged.ranksModuleLoaded).toBe(true)
    expect(damaged.stdout).toBe(damaged.expected)
    // Every part counted from the table (a new store): the same prompt, the same counts as the library's.
    rmSync(join(temp.dir, 'store'), { recursive: true, force: true })
    const cold = run('cli.js')
    expect(cold.ranksModuleLoaded).toBe(false)
    expect(cold.stdout).toBe(cold.expected)
  }, 240_000)
})

describe('the CommonJS bundle, read as Latin-1', () => {
  it('is ASCII and minified, and prompts from it a project of text beyond ASCII as the ES module bundle does (markers broken, CJK sentences)', () => {
    const script = readFileSync(join(REPO_ROOT, 'out', 'cli', 'cli.cjs'), 'latin1')
    expect(/[^\x00-\x7f]/.test(script)).toBe(false)
    // Without whitespace and comments: every start reads the whole script into new memory.
    expect(script.split('\n').length).toBeLessThan(100)
    const project = copyProject(join(REPO_ROOT, 'resources', 'sample-project'), 'unicode')
    cleanups.push(project.cleanup)
    const rules = join(project.dir, 'RULES.md')
    writeFileSync(rules, readFileSync(rules, 'utf8') + '\nIgnore <｜begin▁of▁sentence｜> and <|im_start|>. 你好。再见！ — “quoted” … 👍\n')
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const args = ['prompt', '--project', project.dir, '--now', '2026-01-31T09:00:00Z', '--json']
    const fromCommonJs = glassbox([...args, '--data-dir', join(temp.dir, 'cjs')])
    const fromEsModules = glassbox([...args, '--data-dir', join(temp.dir, 'esm')], {}, 'out/cli/cli.js')
    expect(fromCommonJs.status, fromCommonJs.stderr).toBe(0)
    expect(fromCommonJs.stdout).toBe(fromEsModules.stdout)
    // The DeepSeek marker's pattern is a template of full-width bars: broken with a joiner, not read as mojibake.
    expect(JSON.parse(fromCommonJs.stdout).system).toContain('Ignore <｜\u200Dbegin▁of▁sentence｜> and <|\u200Dim_start|>. 你好。再见！ — “quoted” … 👍')
  }, 120_000)
})

describe('the CommonJS bundle, without what only other commands use', () => {
  it('holds none of the packages a prompt without attachments never loads, and loads them from node_modules for an attachment', () => {
    // The packages esbuild put in the script (its metafile, as the build wrote it down): what a prompt needs is
    // there, none of these.
    const { commonJsPackages } = JSON.parse(readFileSync(join(REPO_ROOT, 'out', 'cli', 'build-info.json'), 'utf8')) as { commonJsPackages: string[] }
    expect(commonJsPackages).toEqual(expect.arrayContaining(['gray-matter', 'handlebars', 'zod']))
    for (const name of LAZY_PACKAGES) expect(commonJsPackages).not.toContain(name)
    const project = copyProject(NAO_LAYOUT, 'attachment')
    cleanups.push(project.cleanup)
    const image = join(project.dir, 'docs', 'chart.png')
    mkdirSync(join(project.dir, 'docs'), { recursive: true })
    writeFileSync(image, Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d0f1ef0000000049454e44ae426082', 'hex'))
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const args = ['prompt', '--project', project.dir, '--now', '2026-01-31T09:00:00Z', '--question', 'what does it show?', '--attach', image, '--json']
    const fromCommonJs = glassbox([...args, '--data-dir', join(temp.dir, 'cjs')])
    expect(fromCommonJs.status, fromCommonJs.stderr).toBe(0)
    expect(JSON.parse(fromCommonJs.stdout).user).toContain('"type": "image/png"')
    expect(fromCommonJs.stdout).toBe(glassbox([...args, '--data-dir', join(temp.dir, 'esm')], {}, 'out/cli/cli.js').stdout)
  }, 120_000)
})

describe('routeDynamicImports', () => {
  it("makes each import() of a package a call of the loader's, and leaves methods, names and strings alone", () => {
    const code = 'const a = import("file-type"); x.import("y"); reimport("z"); const s = "say \\"import(\\"w\\")\\"";'
    expect(routeDynamicImports(code)).toBe('const a = __import("file-type"); x.import("y"); reimport("z"); const s = "say \\"import(\\"w\\")\\"";')
  })
})

describe('asciiOnly', () => {
  const same = (code: string) => expect((0, eval)(asciiOnly(code))).toEqual((0, eval)(code))

  it('escapes what strings, regular expressions and comments hold, meaning the same', () => {
    same('"— ｜ 👍"')
    same('/[。！？]/u.test("再见！") && /👍/u.test("a👍") && /^.$/u.test("👍") /* — */')
    same('[/[^｜<>]{1,3}｜/.exec("<｜ab｜")[0], /\\—/.test("\\—")] // 👍')
    expect(/[^\x00-\x7f]/.test(asciiOnly('/—/; "👍" // ｜'))).toBe(false)
  })

  it('writes an identity escape as the plain escape, and leaves an escaped backslash before the character', () => {
    expect(asciiOnly('/\\—/')).toBe('/\\u2014/')
    expect(asciiOnly('/\\\\—/')).toBe('/\\\\\\u2014/')
    same('/\\—/.test("—")')
  })
})

describe('the bundled ask', () => {
  it('runs SQL on DuckDB and answers through LangChain against a real local server', async () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const server = await startScriptedServer({
      script: [{ toolCalls: [{ name: 'execute_sql', args: { sql_query: 'SELECT SUM(amount) AS total_revenue FROM orders' } }] }, { text: 'Total revenue is 1734.' }]
    })
    try {
      // Asynchronous: the scripted server answers from this process's event loop.
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ['bin/glassbox.js', 'ask', '--project', NAO_LAYOUT, '--question', 'Total revenue?', '--endpoint', server.url, '--model', 'scripted-model', '--data-dir', temp.dir, '--json'],
          { cwd: REPO_ROOT, timeout: 120_000 },
          (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out))
        )
      )
      const output = JSON.parse(stdout)
      expect(output).toMatchObject({ answer: 'Total revenue is 1734.', stopReason: 'answer' })
      expect(output.toolCalls[0]).toMatchObject({ name: 'execute_sql', ok: true })
      expect(output.toolCalls[0].output).toContain('1734')
    } finally {
      await server.close()
    }
  }, 120_000)
})

describe('staleReason', () => {
  function built(inputs: Record<string, string>): { root: string; out: string } {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const out = join(temp.dir, 'out')
    mkdirSync(out)
    for (const [file, text] of Object.entries(inputs)) writeFileSync(join(temp.dir, file), text)
    writeFileSync(join(out, 'build-info.json'), JSON.stringify({ inputs: Object.keys(inputs) }))
    const past = new Date(Date.now() - 60_000)
    for (const file of Object.keys(inputs)) utimesSync(join(temp.dir, file), past, past)
    return { root: temp.dir, out }
  }

  it('is null when every input is older than the bundle', () => {
    const { root, out } = built({ 'a.ts': 'a', 'b.ts': 'b' })
    expect(staleReason(out, root)).toBeNull()
  })

  it('names the source that changed after the build', () => {
    const { root, out } = built({ 'a.ts': 'a', 'b.ts': 'b' })
    const future = new Date(Date.now() + 60_000)
    utimesSync(join(root, 'b.ts'), future, future)
    expect(staleReason(out, root)).toBe('b.ts changed')
  })

  it('names a source that is gone, and a bundle never built', () => {
    const { root, out } = built({ 'a.ts': 'a' })
    rmSync(join(root, 'a.ts'))
    expect(staleReason(out, root)).toBe('a.ts is gone')
    expect(staleReason(join(root, 'nowhere'), root)).toBe('out/cli is not built yet')
  })
})
