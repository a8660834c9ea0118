import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { makeTempDir } from '../../../test/support/fixtures'
import { ELECTRON_BINDING, findAppRoot, resolveNativeBinding } from './native-binding'

const temp = makeTempDir('glassbox-native-')
afterAll(() => temp.cleanup())

const node = {}
const electron = { electron: '40.10.2' }

it('uses an explicit binding as given', () => {
  expect(resolveNativeBinding('/x/better_sqlite3.node', electron, temp.dir)).toBe('/x/better_sqlite3.node')
})

it('uses better-sqlite3’s own build under Node, named so its lookup is skipped', () => {
  const binding = resolveNativeBinding(undefined, node, temp.dir)
  expect(binding).toMatch(/node_modules[\\/]better-sqlite3[\\/]build[\\/]Release[\\/]better_sqlite3\.node$/)
  expect(existsSync(binding!)).toBe(true)
})

it('uses the Electron build under Electron only once it exists', () => {
  expect(resolveNativeBinding(undefined, electron, temp.dir)).toBeUndefined()
  mkdirSync(join(temp.dir, '.native', 'electron'), { recursive: true })
  writeFileSync(join(temp.dir, ELECTRON_BINDING), '')
  expect(resolveNativeBinding(undefined, electron, temp.dir)).toBe(join(temp.dir, ELECTRON_BINDING))
})

it('finds the app root from a nested folder', () => {
  writeFileSync(join(temp.dir, 'package.json'), '{}')
  mkdirSync(join(temp.dir, 'out', 'main'), { recursive: true })
  expect(findAppRoot(join(temp.dir, 'out', 'main'))).toBe(temp.dir)
})
