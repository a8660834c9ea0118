import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { MAX_EXPANDED_VALUES, readYaml, YamlError } from './yaml'

describe('readYaml', () => {
  it('reads YAML 1.2 as the `yaml` package does: no dates, no merge keys, yes/no/on are strings', () => {
    const text = [
      'when: 2024-01-31',
      'answer: yes',
      'switch: on',
      'flag: true',
      'nothing: ~',
      'count: 0x1F',
      'ratio: .5',
      'octal: 0o17',
      'infinite: .inf',
      'base: &base { a: 1 }',
      'merged: { <<: *base, b: 2 }',
      'quoted: "a\\tb"',
      'block: |',
      '  SELECT 1',
      '  FROM t',
      'list: [columns, preview, description]'
    ].join('\n')
    expect(readYaml(text)).toEqual(parse(text))
    expect(readYaml(text)).toMatchObject({ when: '2024-01-31', answer: 'yes', switch: 'on', merged: { '<<': { a: 1 }, b: 2 } })
  })

  it('gives nothing for an empty document and says in one line where a broken one goes wrong', () => {
    expect(readYaml('')).toBeNull()
    expect(readYaml('# only a comment\n')).toBeNull()
    expect(() => readYaml('a: 1\n  b: 2\n')).toThrow(YamlError)
    expect(() => readYaml('a: 1\n  b: 2\n')).toThrow(/^bad indentation of a mapping entry at line 2, column 4$/)
    expect(() => readYaml('a: 1\na: 2\n')).toThrow(/duplicated mapping key at line 2/)
    expect(() => readYaml('--- 1\n--- 2\n')).toThrow(YamlError)
  })

  it('refuses aliases that stand for more values than any project file holds, at once', () => {
    // Nine levels of nine: 9^9 (387 million) leaves in a few hundred bytes.
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]']
    for (let level = 1; level < 9; level++) lines.push(`a${level}: &a${level} [${Array(9).fill(`*a${level - 1}`).join(', ')}]`)
    const started = performance.now()
    expect(() => readYaml(lines.join('\n'))).toThrow(`its aliases (*name) stand for more than ${MAX_EXPANDED_VALUES.toLocaleString('en')} values`)
    expect(performance.now() - started).toBeLessThan(1_000)
    // A few aliases, as a person writes them, are fine.
    expect(readYaml('base: &base { user: analyst }\nprod: *base\ntest: *base\n')).toEqual({ base: { user: 'analyst' }, prod: { user: 'analyst' }, test: { user: 'analyst' } })
  })

  it('refuses a value that contains itself, and nesting too deep to walk', () => {
    expect(() => readYaml('a: &a { b: *a }\n')).toThrow(YamlError)
    expect(() => readYaml('['.repeat(100_000) + ']'.repeat(100_000))).toThrow(YamlError)
  })
})
