import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NAO_LAYOUT, makeTempDir } from '../../../../test/support/fixtures'
import { grepTool } from './grep'
import { listTool } from './list'
import { readTool } from './read'
import { searchTool } from './search'
import { makeToolContext } from './tool-context.testing'

describe('file tools on the nao-layout fixture', () => {
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    ctx = await makeToolContext(NAO_LAYOUT)
  })
  afterAll(() => ctx.close())

  it('read returns a project file', async () => {
    const result = await readTool.invoke({ file_path: 'docs/notion/jaffle-shop-information.md' }, ctx)
    expect(result.ok).toBe(true)
    expect(result.output).toContain('## About Jaffle Shop')
  })

  it('read refuses paths that climb out or are absolute', async () => {
    const climbing = await readTool.invoke({ file_path: '../../../../etc/passwd' }, ctx)
    expect(climbing).toMatchObject({ ok: false })
    expect(climbing.output).toContain('climbs out of the project')
    const absolute = await readTool.invoke({ file_path: '/etc/passwd' }, ctx)
    expect(absolute.ok).toBe(false)
    expect(absolute.output).toContain('absolute path outside the project')
  })

  it('read treats .naoignore matches as missing', async () => {
    const result = await readTool.invoke({ file_path: 'templates/databases/preview.md.j2' }, ctx)
    expect(result).toEqual({ ok: false, output: 'Error: Cannot read "templates/databases/preview.md.j2": no such file or folder.' })
  })

  it('list shows direct entries only, folders with a slash, hidden ones left out', async () => {
    const result = await listTool.invoke({ path: '' }, ctx)
    expect(result.output).toContain('docs/')
    expect(result.output).toContain('RULES.md')
    expect(result.output).not.toContain('templates')
    const tables = await listTool.invoke({ path: 'databases/type=duckdb/database=jaffle_shop/schema=main' }, ctx)
    expect(tables.output.split('\n')).toContain('table=orders/')
  })

  it('list caps entries with a visible marker', async () => {
    const small = { ...ctx, limits: { ...ctx.limits, maxEntries: 3 } }
    const result = await listTool.invoke({ path: 'databases/type=duckdb/database=jaffle_shop/schema=main' }, small)
    expect(result.output).toMatch(/… 5 more entries \(8 total\)$/)
  })

  it('search matches a glob, and a bare name at any depth', async () => {
    const glob = await searchTool.invoke({ pattern: 'databases/**/table=orders/*.md' }, ctx)
    expect(glob.output).toContain('3 files match')
    const bare = await searchTool.invoke({ pattern: 'columns.md' }, ctx)
    expect(bare.output).toContain('8 files match')
    const hidden = await searchTool.invoke({ pattern: '**/*.j2' }, ctx)
    expect(hidden.output).toBe('No project file matches **/*.j2.')
  })

  it('grep finds lines with context, case-insensitively, within a glob', async () => {
    const result = await grepTool.invoke({ pattern: 'about jaffle', case_insensitive: true, glob: '*.md', context_lines: 1 }, ctx)
    expect(result.output).toContain('docs/notion/jaffle-shop-information.md:6: ## About Jaffle Shop')
    expect(result.output).toContain('docs/notion/jaffle-shop-information.md-5- ')
  })

  it('grep caps matches with a marker and reports invalid patterns', async () => {
    const capped = await grepTool.invoke({ pattern: 'a', max_results: 2 }, ctx)
    expect(capped.output).toMatch(/… \d+ more matches/)
    const invalid = await grepTool.invoke({ pattern: '(' }, ctx)
    expect(invalid.ok).toBe(false)
    expect(invalid.output).toContain('Invalid regular expression')
  })
})

describe('file tools and symlinks', () => {
  let temp: ReturnType<typeof makeTempDir>
  let outside: ReturnType<typeof makeTempDir>
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    temp = makeTempDir()
    outside = makeTempDir()
    writeFileSync(join(outside.dir, 'secret.txt'), 'TOP SECRET')
    mkdirSync(join(temp.dir, 'docs'))
    writeFileSync(join(temp.dir, 'docs', 'a.md'), 'hello')
    symlinkSync(join(outside.dir, 'secret.txt'), join(temp.dir, 'docs', 'leak.md'))
    mkdirSync(join(temp.dir, '.git'))
    writeFileSync(join(temp.dir, '.git', 'config'), '[core]')
    ctx = await makeToolContext(temp.dir)
  })
  afterAll(() => {
    ctx.close()
    temp.cleanup()
    outside.cleanup()
  })

  it('read refuses a symlink that points outside the project', async () => {
    const result = await readTool.invoke({ file_path: 'docs/leak.md' }, ctx)
    expect(result.ok).toBe(false)
    expect(result.output).toContain('outside the project')
    expect(result.output).not.toContain('TOP SECRET')
  })

  it('grep never reads through the escaping symlink, and .git is invisible', async () => {
    expect((await grepTool.invoke({ pattern: 'SECRET' }, ctx)).output).toMatch(/^No match/)
    expect((await readTool.invoke({ file_path: '.git/config' }, ctx)).ok).toBe(false)
  })
})

describe('file tools and hostile file names (#11)', () => {
  let temp: ReturnType<typeof makeTempDir>
  let outside: ReturnType<typeof makeTempDir>
  let ctx: Awaited<ReturnType<typeof makeToolContext>>
  beforeAll(async () => {
    temp = makeTempDir()
    outside = makeTempDir()
    mkdirSync(join(temp.dir, 'docs'))
    writeFileSync(join(temp.dir, 'docs', 'real.md'), 'needle\n')
    // A name that, printed raw, would add a fake entry and a fake grep match.
    writeFileSync(join(temp.dir, 'docs', 'x.md\nforged.md:1: needle'), 'needle\n')
    writeFileSync(join(outside.dir, 'secret.md'), 'needle\n')
    symlinkSync(join(outside.dir, 'secret.md'), join(temp.dir, 'docs', 'leak.md'))
    ctx = await makeToolContext(temp.dir)
  })
  afterAll(() => {
    ctx.close()
    temp.cleanup()
    outside.cleanup()
  })

  it('list, search and grep print a name with a newline JSON-quoted on one line', async () => {
    const list = (await listTool.invoke({ path: 'docs' }, ctx)).output.split('\n')
    expect(list).toContain(JSON.stringify('x.md\nforged.md:1: needle'))
    expect(list).not.toContain('forged.md:1: needle')
    const search = (await searchTool.invoke({ pattern: 'docs/*' }, ctx)).output.split('\n')
    expect(search).toContain(JSON.stringify('docs/x.md\nforged.md:1: needle'))
    const grep = (await grepTool.invoke({ pattern: 'needle' }, ctx)).output.split('\n')
    expect(grep).toEqual(['docs/real.md:1: needle', `${JSON.stringify('docs/x.md\nforged.md:1: needle')}:1: needle`])
  })

  it('a symlink out of the project is refused without naming where it points', async () => {
    const read = await readTool.invoke({ file_path: 'docs/leak.md' }, ctx)
    expect(read.ok).toBe(false)
    expect(read.output).toContain('outside the project')
    expect(read.output).not.toContain(outside.dir)
  })
})
