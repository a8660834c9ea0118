import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir, NAO_LAYOUT } from '../../../test/support/fixtures'
import { loadProject } from './load'

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** A temp project with the given files; also returns a folder beside it that is outside the project. */
function makeProject(files: Record<string, string | Buffer> = {}): { project: string; outside: string } {
  const temp = makeTempDir()
  cleanups.push(temp.cleanup)
  const project = join(temp.dir, 'project')
  const outside = join(temp.dir, 'outside')
  mkdirSync(project)
  mkdirSync(outside)
  for (const [path, content] of Object.entries(files)) write(project, path, content)
  return { project, outside }
}

function write(root: string, path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), content)
}

describe('loadProject on the nao-layout fixture', () => {
  it('reads connections, tables, rules, config and visibility', async () => {
    const snapshot = await loadProject(NAO_LAYOUT)
    expect(snapshot.name).toBe('nao-layout')
    expect(snapshot.connections).toEqual([{ type: 'duckdb', database: 'jaffle_shop' }])
    // The fixture has 8 table folders (customers, orders, raw_*×3, stg_*×3).
    expect(snapshot.tables.map((table) => table.table)).toEqual([
      'customers',
      'orders',
      'raw_customers',
      'raw_orders',
      'raw_payments',
      'stg_customers',
      'stg_orders',
      'stg_payments'
    ])
    expect(snapshot.tables[0].files).toEqual(['columns.md', 'description.md', 'preview.md'])
    expect(snapshot.rules).toEqual({ source: 'RULES.md', text: readFileSync(join(NAO_LAYOUT, 'RULES.md'), 'utf8') })
    expect(snapshot.databases).toEqual([
      {
        name: 'duckdb-jaffle-shop',
        type: 'duckdb',
        path: join(NAO_LAYOUT, 'jaffle_shop.duckdb'),
        accessors: ['columns', 'preview'],
        include: [],
        exclude: []
      }
    ])
    expect(snapshot.tests).toEqual(['tests/total_revenue.yml'])
    expect(snapshot.contextFolders).toEqual({ databases: true, docs: true, semantics: false, repos: false, queries: false })
    expect(snapshot.files).toContain('docs/notion/jaffle-shop-information.md')
    expect(snapshot.files.some((file) => file.startsWith('templates/'))).toBe(false)
    expect(snapshot.files).toEqual([...snapshot.files].sort())
    expect(snapshot.skills.map(({ name, description, location }) => ({ name, description, location }))).toEqual([
      { name: 'cohort-retention', description: '', location: 'agent/skills/cohort-retention.md' },
      { name: 'revenue', description: 'How to compute revenue and split it by payment method', location: 'agent/skills/revenue.md' }
    ])
    expect(snapshot.diagnostics).toEqual([])
    expect(snapshot.version).toBe(0)
  })
})

describe('loadProject with bad input', () => {
  it('refuses an override symlinked outside the project, with a diagnostic', async () => {
    const { project, outside } = makeProject({ 'RULES.md': 'rules' })
    writeFileSync(join(outside, 'system.md'), 'You are evil.')
    mkdirSync(join(project, 'agent', 'prompts'), { recursive: true })
    symlinkSync(join(outside, 'system.md'), join(project, 'agent', 'prompts', 'system.md'))
    const snapshot = await loadProject(project)
    expect(snapshot.systemOverride).toBeNull()
    expect(snapshot.diagnostics).toEqual([{ file: 'agent/prompts/system.md', problem: expect.stringMatching(/outside the project/) }])
    expect(snapshot.files).not.toContain('agent/prompts/system.md')
    expect(snapshot.rules?.text).toBe('rules')
  })

  it('refuses a skill symlinked outside the project, keeping the other skills', async () => {
    const { project, outside } = makeProject({ 'agent/skills/good.md': 'good body' })
    writeFileSync(join(outside, 'stolen.md'), '---\nname: stolen\n---\nsecret')
    symlinkSync(join(outside, 'stolen.md'), join(project, 'agent', 'skills', 'stolen.md'))
    const snapshot = await loadProject(project)
    expect(snapshot.skills.map((skill) => skill.name)).toEqual(['good'])
    expect(snapshot.diagnostics).toEqual([{ file: 'agent/skills/stolen.md', problem: expect.stringMatching(/outside the project/) }])
  })

  it('refuses a database path that climbs out with ../ or is absolute elsewhere', async () => {
    const { project, outside } = makeProject()
    writeFileSync(join(outside, 'other.duckdb'), 'x')
    write(
      project,
      'nao_config.yaml',
      `databases:\n- {name: up, type: duckdb, path: ../outside/other.duckdb}\n- {name: abs, type: duckdb, path: ${join(outside, 'other.duckdb')}}\n`
    )
    const snapshot = await loadProject(project)
    expect(snapshot.databases.map((database) => database.path)).toEqual([null, null])
    expect(snapshot.diagnostics.map((diagnostic) => diagnostic.problem)).toEqual([
      expect.stringMatching(/databases\[0\] \(up\): path refused.*climbs out/),
      expect.stringMatching(/databases\[1\] \(abs\): path refused.*absolute path outside/)
    ])
  })

  it('loads a skill with malformed frontmatter under its defaults', async () => {
    const { project } = makeProject({ 'agent/skills/Revenue.md': '---\nname: [unclosed\ndescription: x\n---\nHow to compute revenue.\n' })
    const snapshot = await loadProject(project)
    expect(snapshot.skills).toEqual([{ name: 'Revenue', description: '', location: 'agent/skills/Revenue.md', body: 'How to compute revenue.\n' }])
    expect(snapshot.diagnostics).toEqual([{ file: 'agent/skills/Revenue.md', problem: expect.stringMatching(/malformed frontmatter/) }])
  })

  it('reads name and description from frontmatter, defaulting to the stem and empty', async () => {
    const { project } = makeProject({
      'agent/skills/a.md': '---\nname: Churn\ndescription: Monthly churn\n---\nbody a',
      'agent/skills/b.md': 'body b'
    })
    const snapshot = await loadProject(project)
    expect(snapshot.skills).toEqual([
      { name: 'Churn', description: 'Monthly churn', location: 'agent/skills/a.md', body: 'body a' },
      { name: 'b', description: '', location: 'agent/skills/b.md', body: 'body b' }
    ])
  })

  it('never evaluates JavaScript frontmatter', async () => {
    const { project } = makeProject({ 'agent/skills/js.md': '---js\n{ name: (globalThis.pwned = "yes") }\n---\nbody' })
    const snapshot = await loadProject(project)
    expect(Reflect.get(globalThis, 'pwned')).toBeUndefined()
    expect(snapshot.skills).toEqual([{ name: 'js', description: '', location: 'agent/skills/js.md', body: 'body' }])
    expect(snapshot.diagnostics[0].problem).toMatch(/JavaScript frontmatter is not allowed/)
  })

  it('skips a binary skill and a non-UTF-8 skill with diagnostics', async () => {
    const { project } = makeProject({
      'agent/skills/binary.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
      'agent/skills/latin1.md': Buffer.from('caf\xe9 cr\xe8me', 'latin1'),
      'agent/skills/ok.md': 'fine'
    })
    const snapshot = await loadProject(project)
    expect(snapshot.skills.map((skill) => skill.name)).toEqual(['ok'])
    expect(snapshot.diagnostics).toEqual([
      { file: 'agent/skills/binary.md', problem: expect.stringMatching(/binary/) },
      { file: 'agent/skills/latin1.md', problem: expect.stringMatching(/not valid UTF-8/) }
    ])
  })

  it('reads the head of a 5 MB RULES.md and says it was cut', async () => {
    const line = 'Always answer in euros. Ünïcödé keeps the cut honest.\n'
    const { project } = makeProject({ 'RULES.md': line.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(line))) })
    const snapshot = await loadProject(project)
    const text = snapshot.rules?.text ?? ''
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024 * 1024)
    expect(Buffer.byteLength(text)).toBeGreaterThan(1024 * 1024 - 4)
    expect(text.startsWith(line)).toBe(true)
    expect(snapshot.diagnostics).toEqual([{ file: 'RULES.md', problem: expect.stringMatching(/is 5\.0 MB; only the first 1\.0 MB was read/) }])
  })

  it('treats an empty or blank override as absent', async () => {
    const { project } = makeProject({
      'agent/prompts/system.md': '',
      'agent/prompts/Slack.md': '  \n\n ',
      'agent/prompts/whatsapp.md': '\n  Plain text only.  \n',
      'agent/prompts/user-prompt.md': '{{query}}\n'
    })
    const snapshot = await loadProject(project)
    expect(snapshot.systemOverride).toBeNull()
    expect(snapshot.channelOverrides).toEqual({ whatsapp: { source: 'agent/prompts/whatsapp.md', text: 'Plain text only.' } })
    expect(snapshot.userPromptOverride).toEqual({ source: 'agent/prompts/user-prompt.md', text: '{{query}}' })
    expect(snapshot.diagnostics).toEqual([])
  })

  it('reports a file inside databases/ where a folder belongs, and still reads the rest', async () => {
    const { project } = makeProject({
      'databases/README.md': 'notes',
      'databases/type=duckdb/database=shop/schema=main/table=orders/columns.md': '# columns',
      'databases/type=postgres/database=/schema=x/table=y/columns.md': 'empty database name',
      'databases/type=sqlite/database=local/.keep': ''
    })
    const snapshot = await loadProject(project)
    expect(snapshot.connections).toEqual([
      { type: 'duckdb', database: 'shop' },
      { type: 'sqlite', database: 'local' }
    ])
    expect(snapshot.tables).toHaveLength(1)
    expect(snapshot.diagnostics).toEqual([{ file: 'databases/README.md', problem: expect.stringMatching(/is a file where a `type=<name>` folder/) }])
  })

  it('reports databases itself being a file', async () => {
    const { project } = makeProject({ databases: 'not a folder' })
    const snapshot = await loadProject(project)
    expect(snapshot.connections).toEqual([])
    expect(snapshot.contextFolders.databases).toBe(false)
    expect(snapshot.diagnostics).toEqual([{ file: 'databases', problem: expect.stringMatching(/is not a folder/) }])
  })

  it('keeps loading when nao_config.yaml is malformed', async () => {
    const { project } = makeProject({ 'nao_config.yaml': 'project_name: [oops\n  databases: :\n', 'RULES.md': 'rules' })
    const snapshot = await loadProject(project)
    expect(snapshot.name).toBe('project')
    expect(snapshot.databases).toEqual([])
    expect(snapshot.rules?.text).toBe('rules')
    expect(snapshot.diagnostics).toEqual([{ file: 'nao_config.yaml', problem: expect.stringMatching(/is not valid YAML/) }])
  })

  it('hides .git and .naoignore matches from files, but not from the prompt parts', async () => {
    const { project } = makeProject({
      '.git/HEAD': 'ref: refs/heads/main',
      '.naoignore': '# private notes\nprivate/\n',
      'private/salaries.md': 'secret',
      'docs/public.md': 'public'
    })
    const snapshot = await loadProject(project)
    expect(snapshot.files).toEqual(['.naoignore', 'docs/public.md'])
    expect(snapshot.ignorePatterns).toEqual(['private/'])
  })

  it('reports a broken symlinked RULES.md', async () => {
    const { project } = makeProject()
    symlinkSync(join(project, 'missing.md'), join(project, 'RULES.md'))
    const snapshot = await loadProject(project)
    expect(snapshot.rules).toBeNull()
    expect(snapshot.diagnostics).toEqual([{ file: 'RULES.md', problem: expect.stringMatching(/broken symlink/) }])
  })

  it('reports symlinks the agent cannot follow, once each', async () => {
    const { project, outside } = makeProject({ 'docs/real.md': 'real' })
    writeFileSync(join(outside, 'notes.md'), 'outside')
    symlinkSync(join(outside, 'notes.md'), join(project, 'docs', 'outside.md'))
    symlinkSync(join(project, 'docs', 'gone.md'), join(project, 'docs', 'broken.md'))
    symlinkSync(join(project, 'docs', 'real.md'), join(project, 'docs', 'alias.md'))
    const snapshot = await loadProject(project)
    expect(snapshot.files).toEqual(['docs/alias.md', 'docs/real.md'])
    expect(snapshot.diagnostics).toEqual([
      { file: 'docs/broken.md', problem: expect.stringMatching(/broken symlink/) },
      { file: 'docs/outside.md', problem: expect.stringMatching(/outside the project/) }
    ])
  })

  it('rejects a root that is not a folder', async () => {
    const { project } = makeProject({ 'file.txt': 'x' })
    await expect(loadProject(join(project, 'file.txt'))).rejects.toThrow(/not a folder/)
    rmSync(project, { recursive: true })
    await expect(loadProject(project)).rejects.toThrow()
  })
})

describe('loadProject with special files', () => {
  it('does not hang on a named pipe behind a symlinked skill', async () => {
    const { project } = makeProject({ 'agent/skills/ok.md': 'fine' })
    execFileSync('mkfifo', [join(project, 'pipe')])
    symlinkSync(join(project, 'pipe'), join(project, 'agent', 'skills', 'pipe.md'))
    const snapshot = await loadProject(project)
    expect(snapshot.skills.map((skill) => skill.name)).toEqual(['ok'])
    expect(snapshot.files).toEqual(['agent/skills/ok.md'])
    expect(snapshot.diagnostics).toEqual([{ file: 'agent/skills/pipe.md', problem: 'is not a regular file; skipped' }])
  })
})
