import ignore from 'ignore'
import { describe, expect, it } from 'vitest'
import { Visibility } from './visibility'

// Visibility answers files by name when every pattern can only match a name; it must agree with the `ignore`
// package asked about the full path (parents first, as gitignore does).

const PATHS = [
  'RULES.md',
  'notes.j2',
  'docs/a.md',
  'docs/templates/x.md',
  'docs/sub/keep.j2',
  'templates/page.md',
  'databases/type=duckdb/database=w/schema=s/table=t/columns.md',
  'databases/type=duckdb/database=w/schema=s/table=t/preview.md',
  'a/node_modules/b.md',
  'a/b/secret.md',
  'a/b/README.md'
]

function reference(patterns: string[], path: string): boolean {
  const matcher = ignore().add(patterns)
  const segments = path.split('/')
  for (let depth = 1; depth < segments.length; depth++) {
    const folder = segments.slice(0, depth)
    if (folder.at(-1) === 'node_modules' || folder.at(-1) === '.git' || matcher.ignores(folder.join('/') + '/')) return true
  }
  return matcher.ignores(path)
}

describe('Visibility', () => {
  const cases: string[][] = [
    ['templates/', '*.j2'],
    ['*.md', '!README.md'],
    ['secret.md', 'preview.md'],
    // Slashes inside a pattern: answered path by path.
    ['docs/*.md', '/notes.j2'],
    []
  ]
  for (const patterns of cases) {
    it(`hides files as gitignore does for ${JSON.stringify(patterns)}`, () => {
      const visibility = new Visibility(patterns)
      for (const path of PATHS) expect([path, visibility.isHidden(path, 'file')]).toEqual([path, reference(patterns, path)])
      expect(visibility.isHidden('docs/templates', 'dir')).toBe(reference(patterns, 'docs/templates/'))
    })
  }
})
