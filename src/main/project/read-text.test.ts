import { execFileSync } from 'node:child_process'
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { decodeUtf8, describeCut, FolderRealPaths, readProjectTextSync } from './read-text'
import { SMALL_FILE_BYTES } from './regular-file'

describe('decodeUtf8', () => {
  it('drops a character cut in half at the cap instead of refusing the file', () => {
    const bytes = Buffer.from('café', 'utf8').subarray(0, 4) // 'caf' + the first byte of 'é'
    expect(decodeUtf8(bytes, true)).toEqual({ ok: true, text: 'caf' })
  })

  it('refuses the same bytes when the file was read whole', () => {
    expect(decodeUtf8(Buffer.from('café', 'utf8').subarray(0, 4), false)).toMatchObject({ ok: false })
  })

  it('strips a byte-order mark', () => {
    expect(decodeUtf8(Buffer.from('\uFEFFrules', 'utf8'), false)).toEqual({ ok: true, text: 'rules' })
  })

  it('refuses NUL bytes as binary', () => {
    expect(decodeUtf8(Buffer.from([0x61, 0x00, 0x62]), false)).toEqual({ ok: false, problem: 'looks binary (contains NUL bytes); skipped' })
    // Not UTF-8 either (as most binary files are): still said to look binary, and in a cut read too.
    expect(decodeUtf8(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]), false)).toEqual({ ok: false, problem: 'looks binary (contains NUL bytes); skipped' })
    expect(decodeUtf8(Buffer.from([0x61, 0x00, 0xc3]), true)).toEqual({ ok: false, problem: 'looks binary (contains NUL bytes); skipped' })
  })
})

describe('decodeUtf8 with one decoder for whole texts', () => {
  it('starts every text afresh, after a refused one and after a cut one', () => {
    expect(decodeUtf8(Buffer.from([0x61, 0xc3]), false)).toMatchObject({ ok: false })
    expect(decodeUtf8(Buffer.from('caf\u00e9', 'utf8').subarray(0, 4), true)).toEqual({ ok: true, text: 'caf' })
    expect(decodeUtf8(Buffer.from('\uFEFFno mark kept', 'utf8'), false)).toEqual({ ok: true, text: 'no mark kept' })
    expect(decodeUtf8(Buffer.from('\u00e9t\u00e9', 'utf8'), false)).toEqual({ ok: true, text: '\u00e9t\u00e9' })
  })
})

describe('FolderRealPaths.joinedPath', () => {
  it('is what join gives, for plain names and for the odd ones it leaves to join', () => {
    for (const root of ['/project', '/project/', '/']) {
      const folders = new FolderRealPaths(root)
      for (const relPath of ['RULES.md', 'agent/skills/revenue.md', 'agent/skills/', 'agent/.', 'agent/skills/..', 'a/../b.md', './x.md', 'deep/a/b/c/d.md']) {
        expect(folders.joinedPath(relPath)).toBe(join(root, relPath))
      }
    }
  })
})

describe('describeCut', () => {
  it('says how big the file is and how much was read', () => {
    expect(describeCut(5 * 1024 * 1024, 1024 * 1024)).toBe('is 5.0 MB; only the first 1.0 MB was read (size limit)')
  })
})

describe('readProjectTextSync with the folders of one pass', () => {
  const cleanups: Array<() => void> = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup()
  })

  /** A project whose `agent/skills` is a symlink to `target` (a folder, given relative to the temp folder). */
  function projectWithLinkedSkills(target: 'outside' | 'project/elsewhere'): { root: string; folders: FolderRealPaths } {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const root = join(temp.dir, 'project')
    mkdirSync(join(root, 'agent'), { recursive: true })
    mkdirSync(join(temp.dir, target), { recursive: true })
    writeFileSync(join(temp.dir, target, 'secret.md'), 'SECRET')
    symlinkSync(join(temp.dir, target), join(root, 'agent', 'skills'))
    return { root: realpathSync(root), folders: new FolderRealPaths(realpathSync(root)) }
  }

  it('refuses a file whose folder became a symlink out of the project', () => {
    const { root, folders } = projectWithLinkedSkills('outside')
    expect(readProjectTextSync(root, 'agent/skills/secret.md', 1024, folders)).toEqual({
      ok: false,
      problem: expect.stringMatching(/symlink that leads outside the project/)
    })
  })

  it('reads a file through a folder symlinked inside the project, at its real path', () => {
    const { root, folders } = projectWithLinkedSkills('project/elsewhere')
    expect(readProjectTextSync(root, 'agent/skills/secret.md', 1024, folders)).toMatchObject({ ok: true, text: 'SECRET', real: join(root, 'elsewhere', 'secret.md') })
  })

  it('refuses a file that is itself a symlink out of the project, as the full guard does', () => {
    const { root, folders } = projectWithLinkedSkills('outside')
    symlinkSync(join(root, 'agent', 'skills', 'secret.md'), join(root, 'agent', 'stolen.md'))
    expect(readProjectTextSync(root, 'agent/stolen.md', 1024, folders)).toEqual(readProjectTextSync(root, 'agent/stolen.md', 1024))
    expect(readProjectTextSync(root, 'agent/stolen.md', 1024, folders)).toMatchObject({ ok: false })
  })
})

describe('readProjectTextSync without a stat', () => {
  const cleanups: Array<() => void> = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup()
  })

  const SMALL_CAP = 100

  /** Files of every kind the full read treats apart, by name; each read with a cap of SMALL_CAP or 1 MB. */
  function projectOfOddFiles(): string {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    const root = realpathSync(temp.dir)
    const files: Record<string, string | Buffer> = {
      'plain.md': '---\nname: plain\n---\nBody.\n',
      'empty.md': '',
      'just-below-small.md': 'x'.repeat(SMALL_FILE_BYTES - 1),
      'small-size.md': 'x'.repeat(SMALL_FILE_BYTES),
      'bigger.md': 'y'.repeat(SMALL_FILE_BYTES + 10),
      'over-the-small-cap.md': 'z'.repeat(SMALL_CAP + 50),
      'at-the-small-cap.md': 'w'.repeat(SMALL_CAP),
      'binary.md': Buffer.from([0x61, 0x00, 0x62]),
      'latin1.md': Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      'accents.md': 'Café, Zürich: ünïcödé ✓\n'
    }
    for (const [name, content] of Object.entries(files)) writeFileSync(join(root, name), content)
    mkdirSync(join(root, 'folder.md'))
    execFileSync('mkfifo', [join(root, 'pipe.md')])
    symlinkSync(join(root, 'plain.md'), join(root, 'link.md'))
    symlinkSync('/etc/hostname', join(root, 'outside.md'))
    return root
  }

  it('gives what the read with a stat gives, but a NaN mtime for the small files read in one go', () => {
    const root = projectOfOddFiles()
    const readInOne = new Set(['plain.md', 'just-below-small.md', 'at-the-small-cap.md', 'accents.md'])
    for (const name of ['plain.md', 'empty.md', 'just-below-small.md', 'small-size.md', 'bigger.md', 'over-the-small-cap.md', 'at-the-small-cap.md', 'binary.md', 'latin1.md', 'accents.md', 'folder.md', 'pipe.md', 'link.md', 'outside.md']) {
      const cap = name.includes('small-cap') ? SMALL_CAP : 1024 * 1024
      const withStat = readProjectTextSync(root, name, cap, new FolderRealPaths(root))
      const withoutStat = readProjectTextSync(root, name, cap, new FolderRealPaths(root), { withoutStat: true })
      if (!readInOne.has(name)) {
        expect(withoutStat, name).toEqual(withStat)
        continue
      }
      expect(withStat.ok && withoutStat.ok, name).toBe(true)
      expect({ ...withoutStat, mtimeMs: 0 }, name).toEqual({ ...withStat, mtimeMs: 0 })
      expect(withoutStat.ok && withoutStat.mtimeMs, name).toBeNaN()
    }
  })

  it('keeps each text whole when the next file is read into the same buffer', () => {
    const root = projectOfOddFiles()
    const folders = new FolderRealPaths(root)
    const first = readProjectTextSync(root, 'accents.md', 1024, folders, { withoutStat: true })
    readProjectTextSync(root, 'just-below-small.md', 1024 * 1024, folders, { withoutStat: true })
    expect(first).toMatchObject({ ok: true, text: 'Café, Zürich: ünïcödé ✓\n' })
  })
})
