import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NAO_LAYOUT } from '../../../test/support/fixtures'
import { blankTemplates, configDocument, parseConfig, resolveDatabases } from './config'

describe('blankTemplates', () => {
  it('replaces expressions bare and quoted, and drops statements and comments', () => {
    expect(blankTemplates(`a: {{ env('X') }}\nb: "{{ env('Y') }}"\n{% if x %}\n{# note #}c: 1`)).toBe(
      'a: __template__\nb: "__template__"\n\nc: 1'
    )
  })
})

describe('configDocument', () => {
  it('parses one text once, into a document frozen throughout, as its readers share it', () => {
    const text = `project_name: shared-${Math.random()}\ndatabases:\n- name: shop\n  type: duckdb\n`
    const document = configDocument(text) as { databases: Array<{ name: string }> }
    expect(configDocument(text)).toBe(document)
    expect(() => (document.databases[0].name = 'changed')).toThrow(TypeError)
    expect(configDocument(`${text}# edited\n`)).not.toBe(document)
  })
})

describe('parseConfig', () => {
  it("reads the nao-layout fixture's config despite its Jinja api_key", () => {
    const config = parseConfig(readFileSync(join(NAO_LAYOUT, 'nao_config.yaml'), 'utf8'))
    expect(config.projectName).toBe('nao-layout')
    expect(config.databases).toEqual([
      { index: 0, name: 'duckdb-jaffle-shop', type: 'duckdb', path: './jaffle_shop.duckdb', accessors: ['columns', 'preview'], include: [], exclude: [] }
    ])
    expect(config.diagnostics).toEqual([])
    expect(resolveDatabases(NAO_LAYOUT, config.databases).databases[0].path).toBe(join(NAO_LAYOUT, 'jaffle_shop.duckdb'))
  })

  it('skips an entry without name or type and keeps the others', () => {
    const config = parseConfig('databases:\n- type: duckdb\n- name: pg\n  type: postgres\n  accessors: [columns, 3, {x: 1}]\n')
    expect(config.databases).toEqual([{ index: 1, name: 'pg', type: 'postgres', path: null, accessors: ['columns', '3'], include: [], exclude: [] }])
    expect(config.diagnostics).toEqual([
      { file: 'nao_config.yaml', problem: 'databases[0] needs at least `name` and `type`; skipped' },
      { file: 'nao_config.yaml', problem: 'databases[1] (pg): a postgres database needs `database` and `user`' }
    ])
  })

  it('says when a database file does not exist yet', () => {
    const config = parseConfig('databases:\n- {name: later, type: sqlite, path: ./later.sqlite}\n')
    const resolved = resolveDatabases(NAO_LAYOUT, config.databases)
    expect(resolved.databases[0].path).toBeNull()
    expect(resolved.diagnostics[0].problem).toMatch(/databases\[0\] \(later\): Cannot read "\.\/later\.sqlite": no such file/)
  })

  it('reports a config whose aliases expand without end, and reads no setting of it', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]']
    for (let level = 1; level < 9; level++) lines.push(`a${level}: &a${level} [${Array(9).fill(`*a${level - 1}`).join(', ')}]`)
    const config = parseConfig(`project_name: bomb\n${lines.join('\n')}\ndatabases: *a8\n`)
    expect(config).toEqual({
      projectName: null,
      databases: [],
      diagnostics: [{ file: 'nao_config.yaml', problem: 'is not valid YAML (its aliases (*name) stand for more than 100,000 values); its settings are ignored' }]
    })
  })

  it('accepts an empty file and reports a non-mapping or a non-list databases', () => {
    expect(parseConfig('')).toEqual({ projectName: null, databases: [], diagnostics: [] })
    expect(parseConfig('- a\n- b\n').diagnostics[0].problem).toMatch(/not a YAML mapping/)
    expect(parseConfig('databases: duckdb\n').diagnostics[0].problem).toMatch(/`databases:` is not a list/)
  })
})
