import { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { buildSnapshot, createCaches } from './build'
import { refreshPaths, walkProject } from './tree'

// After a change, the snapshot is patched from the last one's lists (the files of each prompt folder, the
// symlinks, the visible files); whatever changed, it must be the snapshot a build from scratch gives.

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function makeProject(): { root: string; outside: string } {
  const temp = makeTempDir()
  cleanups.push(temp.cleanup)
  const root = join(temp.dir, 'project')
  const outside = join(temp.dir, 'outside')
  const files: Record<string, string> = {
    'RULES.md': '# Rules\n\nIn EUR.\n',
    'agent/skills/revenue.md': '---\nname: revenue\ndescription: How revenue is computed\n---\nBody.\n',
    'agent/skills/broken.md': '---\nname: [unclosed\n---\nBody.\n',
    'agent/prompts/system.md': 'You are careful.\n\n{{ nao_prompt }}\n',
    'tests/revenue.yaml': 'question: revenue?\n',
    'docs/notes.md': 'Notes.\n',
    'docs/links/readme.md': 'Links.\n'
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  mkdirSync(outside)
  writeFileSync(join(outside, 'secret.md'), 'SECRET')
  symlinkSync(join(outside, 'secret.md'), join(root, 'docs', 'links', 'outside.md'))
  return { root, outside }
}

/** Each change: what it does on disk, and the paths a watcher batch would name. */
const CHANGES: Array<{ name: string; change: (root: string, outside: string) => void; paths: string[] }> = [
  { name: 'an edit of RULES.md', change: (root) => writeFileSync(join(root, 'RULES.md'), '# Rules\n\nIn USD.\n'), paths: ['RULES.md'] },
  { name: 'an edit of a skill', change: (root) => writeFileSync(join(root, 'agent/skills/broken.md'), '---\nname: fixed\n---\n'), paths: ['agent/skills/broken.md'] },
  { name: 'a new skill', change: (root) => writeFileSync(join(root, 'agent/skills/orders.md'), '---\nname: orders\n---\n'), paths: ['agent/skills/orders.md'] },
  { name: 'a skill removed', change: (root) => unlinkSync(join(root, 'agent/skills/revenue.md')), paths: ['agent/skills/revenue.md'] },
  { name: 'a new override', change: (root) => writeFileSync(join(root, 'agent/prompts/slack.md'), 'Short.\n'), paths: ['agent/prompts/slack.md'] },
  { name: 'a new test file', change: (root) => writeFileSync(join(root, 'tests/orders.yml'), 'question: orders?\n'), paths: ['tests/orders.yml'] },
  { name: 'a new symlink out', change: (root, outside) => symlinkSync(join(outside, 'secret.md'), join(root, 'docs/stolen.md')), paths: ['docs/stolen.md'] },
  { name: 'a symlink removed', change: (root) => unlinkSync(join(root, 'docs/links/outside.md')), paths: ['docs/links/outside.md'] },
  {
    name: 'a symlink pointed elsewhere',
    change: (root) => {
      unlinkSync(join(root, 'docs/links/outside.md'))
      symlinkSync(join(root, 'docs/gone.md'), join(root, 'docs/links/outside.md'))
    },
    paths: ['docs/links/outside.md']
  },
  { name: 'a folder with a symlink removed', change: (root) => rmSync(join(root, 'docs/links'), { recursive: true }), paths: ['docs/links'] },
  {
    name: 'a new folder with a symlink in it',
    change: (root, outside) => {
      mkdirSync(join(root, 'repos'))
      symlinkSync(join(outside, 'secret.md'), join(root, 'repos/stolen.md'))
    },
    paths: ['repos']
  },
  { name: 'the skills folder removed', change: (root) => rmSync(join(root, 'agent/skills'), { recursive: true }), paths: ['agent/skills'] },
  { name: 'a skill in a new subfolder', change: (root) => mkdirSync(join(root, 'agent/skills/more')), paths: ['agent/skills/more'] }
]

describe('buildSnapshot after a change', () => {
  for (const { name, change, paths } of CHANGES) {
    it(`gives what a build from scratch gives after ${name}`, async () => {
      const { root, outside } = makeProject()
      const tree = await walkProject(root)
      const caches = createCaches()
      await buildSnapshot(root, tree, caches, 0)
      change(root, outside)
      await refreshPaths(root, tree, paths)
      const patched = await buildSnapshot(root, tree, caches, 1, new Set(paths))
      const fresh = await buildSnapshot(root, await walkProject(root), createCaches(), 1)
      expect(patched).toEqual(fresh)
    })
  }
})

describe('buildSnapshot of skills that did not change', () => {
  it('keeps them, and their diagnostics, without looking one up', async () => {
    const { root } = makeProject()
    const tree = await walkProject(root)
    const caches = createCaches()
    const first = await buildSnapshot(root, tree, caches, 0)
    const lookUps = vi.spyOn(caches.skills, 'load')
    writeFileSync(join(root, 'RULES.md'), '# Rules\n\nIn USD.\n')
    await refreshPaths(root, tree, ['RULES.md'])
    const next = await buildSnapshot(root, tree, caches, 1, new Set(['RULES.md']))
    expect(lookUps).not.toHaveBeenCalled()
    expect(next.skills).toBe(first.skills)
    expect(next.diagnostics.filter((diagnostic) => diagnostic.file === 'agent/skills/broken.md')).toHaveLength(1)
    await buildSnapshot(root, tree, caches, 2, new Set(['agent/skills/revenue.md']))
    expect(lookUps).toHaveBeenCalledTimes(2)
  })
})

describe('buildSnapshot with the files listed on first read', () => {
  it('gives the snapshot an eager build gives', async () => {
    const { root } = makeProject()
    const tree = await walkProject(root)
    const lazy = await buildSnapshot(root, tree, createCaches(), 0, null, { filesOnFirstRead: true })
    expect(lazy).toEqual(await buildSnapshot(root, tree, createCaches(), 0))
    expect(lazy.files).toContain('docs/notes.md')
    expect(JSON.parse(JSON.stringify(lazy)).files).toEqual(lazy.files)
  })
})
