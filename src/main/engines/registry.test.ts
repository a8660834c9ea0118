import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../test/support/fixtures'
import { engineForConfig, ENGINES, serverEngineForType } from './registry'

const MAIN = join(REPO_ROOT, 'src/main')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.(test|testing)\.tsx?$/.test(entry.name) ? [path] : []
  })
}

describe('the engine registry', () => {
  it('has one entry per engine folder, ids unique', () => {
    const folders = readdirSync(join(MAIN, 'engines'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
    expect(ENGINES.map((engine) => engine.id).sort()).toEqual(folders.sort())
  })

  it('gives every config type one engine', () => {
    for (const engine of ENGINES) for (const type of engine.configTypes) expect(engineForConfig({ type, path: null })?.id, type).toBe(engine.id)
    expect(serverEngineForType('PostgreSQL')?.id).toBe('postgres')
    expect(serverEngineForType('MariaDB')?.id).toBe('mysql')
    expect(serverEngineForType('duckdb')).toBeNull()
    // nao projects declare CSV files as type duckdb: the extension decides.
    expect(engineForConfig({ type: 'duckdb', path: '/p/sales.csv' })?.id).toBe('files')
  })

  it('is the only place engines are named: no engine type appears as a literal outside src/main/engines', () => {
    // What a config or a folder calls an engine, as a string literal (the files engine's id is a plain word).
    const names = new Set(ENGINES.flatMap((engine) => [...engine.configTypes, ...engine.folderTypes]))
    const literal = new RegExp(`(['"])(${[...names].join('|')})\\1`)
    const offenders = sourceFiles(MAIN)
      .filter((file) => !relative(MAIN, file).startsWith('engines'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) => (literal.test(line) ? [`${relative(REPO_ROOT, file)}:${index + 1}: ${line.trim()}`] : []))
      )
    expect(offenders).toEqual([])
  })
})
