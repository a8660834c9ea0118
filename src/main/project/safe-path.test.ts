import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { isInside, PathOutsideProjectError, ProjectPathMissingError, resolveInside } from './safe-path'
import { isHidden } from './visibility'

let temp: { dir: string; cleanup: () => void }
let project: string
let outside: string

beforeEach(() => {
  temp = makeTempDir()
  project = join(temp.dir, 'project')
  outside = join(temp.dir, 'outside')
  mkdirSync(join(project, 'docs'), { recursive: true })
  mkdirSync(outside)
  writeFileSync(join(project, 'docs', 'a.md'), 'inside')
  writeFileSync(join(outside, 'secret.md'), 'secret')
})
afterEach(() => temp.cleanup())

describe('resolveInside', () => {
  it('resolves a project-relative path to its real path', () => {
    expect(resolveInside(project, 'docs/a.md')).toBe(join(project, 'docs', 'a.md'))
  })

  it('accepts ../ that comes back inside and an absolute path inside', () => {
    expect(resolveInside(project, 'docs/../docs/a.md')).toBe(join(project, 'docs', 'a.md'))
    expect(resolveInside(project, join(project, 'docs', 'a.md'))).toBe(join(project, 'docs', 'a.md'))
  })

  it('refuses ../ climbing out of the project', () => {
    expect(() => resolveInside(project, '../outside/secret.md')).toThrow(PathOutsideProjectError)
    expect(() => resolveInside(project, '../outside/secret.md')).toThrow(/climbs out of the project/)
  })

  it('refuses an absolute path outside the project', () => {
    expect(() => resolveInside(project, join(outside, 'secret.md'))).toThrow(/absolute path outside the project/)
    expect(() => resolveInside(project, '/etc/passwd')).toThrow(PathOutsideProjectError)
  })

  it('refuses a symlink that points outside without revealing where it points (#11)', () => {
    symlinkSync(join(outside, 'secret.md'), join(project, 'docs', 'link.md'))
    expect(() => resolveInside(project, 'docs/link.md')).toThrow(/symlink that leads outside the project/)
    let message = ''
    try {
      resolveInside(project, 'docs/link.md')
    } catch (error) {
      message = String(error)
    }
    expect(message).not.toContain(outside)
    expect(message).not.toContain('secret')
  })

  it('refuses a symlinked folder that points outside', () => {
    symlinkSync(outside, join(project, 'docs', 'elsewhere'))
    expect(() => resolveInside(project, 'docs/elsewhere/secret.md')).toThrow(PathOutsideProjectError)
  })

  it('follows a symlink that stays inside', () => {
    symlinkSync(join(project, 'docs', 'a.md'), join(project, 'alias.md'))
    expect(resolveInside(project, 'alias.md')).toBe(join(project, 'docs', 'a.md'))
  })

  it('works when the project is reached through a symlink', () => {
    const linkedRoot = join(temp.dir, 'linked-root')
    symlinkSync(project, linkedRoot)
    expect(resolveInside(linkedRoot, 'docs/a.md')).toBe(join(project, 'docs', 'a.md'))
  })

  it('treats a NUL character as a missing file, not a crash', () => {
    expect(() => resolveInside(project, 'docs/a.md\u0000.png')).toThrow(ProjectPathMissingError)
  })

  it('names a missing file and a broken symlink', () => {
    expect(() => resolveInside(project, 'nope.md')).toThrow(ProjectPathMissingError)
    symlinkSync(join(project, 'gone.md'), join(project, 'broken.md'))
    expect(() => resolveInside(project, 'broken.md')).toThrow(/broken symlink/)
  })
})

describe('isInside', () => {
  it('treats a file whose name starts with .. as inside', () => {
    expect(isInside('/p', '/p/..notes.md')).toBe(true)
    expect(isInside('/p', '/p')).toBe(true)
    expect(isInside('/p', '/other')).toBe(false)
    expect(isInside('/p', '/p2/x')).toBe(false)
  })
})

describe('isHidden', () => {
  const patterns = ['templates/', '*.j2']

  it('hides .git and node_modules wherever they are', () => {
    expect(isHidden('.git/config')).toBe(true)
    expect(isHidden('docs/.git')).toBe(true)
    expect(isHidden('node_modules/x/index.js')).toBe(true)
  })

  it('hides what .naoignore matches, folders with or without a trailing slash', () => {
    expect(isHidden('templates', patterns)).toBe(true)
    expect(isHidden('templates/databases/preview.md.j2', patterns)).toBe(true)
    expect(isHidden('docs/x.j2', patterns)).toBe(true)
    expect(isHidden('docs/x.md', patterns)).toBe(false)
  })

  it('hides paths that are not project-relative', () => {
    expect(isHidden('../outside.md')).toBe(true)
    expect(isHidden('/etc/passwd')).toBe(true)
  })

  it('judges a path by where it leads, not how it is spelled', () => {
    expect(isHidden('docs/../.git/config')).toBe(true)
    expect(isHidden('docs/../templates/x.md', ['/templates/'])).toBe(true)
    expect(isHidden('docs/../../outside.md')).toBe(true)
    expect(isHidden('docs//a.md', patterns)).toBe(false)
  })

  it('shows the root and ordinary files', () => {
    expect(isHidden('')).toBe(false)
    expect(isHidden('./RULES.md')).toBe(false)
  })
})
