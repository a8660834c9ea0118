import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { NAO_LAYOUT, makeTempDir } from '../../../test/support/fixtures'
import { readDatabaseConfigs } from './database-config'

const cleanups: (() => void)[] = []
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()))

function projectWithConfig(text: string): string {
  const temp = makeTempDir('glassbox-config-')
  cleanups.push(temp.cleanup)
  writeFileSync(join(temp.dir, 'nao_config.yaml'), text)
  return temp.dir
}

describe('readDatabaseConfigs', () => {
  it('reads the nao-layout fixture despite its Jinja expression', () => {
    expect(readDatabaseConfigs(NAO_LAYOUT)).toEqual({
      databases: [
        {
          name: 'duckdb-jaffle-shop',
          type: 'duckdb',
          path: join(NAO_LAYOUT, 'jaffle_shop.duckdb'),
          accessors: ['columns', 'preview'],
          include: [],
          exclude: []
        }
      ],
      problems: []
    })
  })

  it('fills defaults and keeps good entries next to a bad one', () => {
    const root = projectWithConfig('databases:\n- name: x\n  type: DuckDB\n  path: data/x.duckdb\n- name: 42\n')
    const { databases, problems } = readDatabaseConfigs(root)
    expect(databases).toEqual([
      { name: 'x', type: 'duckdb', path: join(root, 'data/x.duckdb'), accessors: ['columns', 'preview', 'description'], include: [], exclude: [] }
    ])
    expect(problems).toEqual(['nao_config.yaml databases[1] needs at least `name` and `type`; skipped'])
  })

  it('reports a file that is not YAML', () => {
    const root = projectWithConfig('databases: [unclosed\n')
    expect(readDatabaseConfigs(root).problems[0]).toMatch(/^nao_config\.yaml is not valid YAML \(/)
  })

  it('is empty without a config file', () => {
    const temp = makeTempDir()
    cleanups.push(temp.cleanup)
    expect(readDatabaseConfigs(temp.dir)).toEqual({ databases: [], problems: [] })
  })
})
